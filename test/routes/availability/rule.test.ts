/**
 * The availability rule's day condition in JavaScript (coversDayOf, for the planner's days without
 * events) equals the SQL one (coversDay) that every other effect runs: the same answers over ranges,
 * weekday masks and days around them, computed by D1 itself.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { coversDay, coversDayOf } from '../../../src/services/availability/rule';
import { db } from '../../helpers/factories';

describe('coversDayOf', () => {
  it('answers what coversDay answers in SQL', async () => {
    const ranges = [
      ['2040-03-01', '2040-03-01'],
      ['2040-03-01', '2040-03-31'],
      ['2040-02-27', '2040-03-04'],
    ];
    const masks = [null, 0b0000001, 0b1000001, 0b0010000, 0b1111111, 0b0101010];
    const days = Array.from({ length: 40 }, (_, i) => new Date(Date.UTC(2040, 1, 25 + i)).toISOString().slice(0, 10));
    const cases = ranges.flatMap(([inicio, fim]) =>
      masks.flatMap((dias) => days.map((day) => ({ data_inicio: inicio!, data_fim: fim!, dias_semana: dias, day }))),
    );
    // One statement: every case's SQL answer, in order.
    const rows = await db.all<{ v: number }>(
      sql`select ${coversDay(
        {
          inicio: sql`json_extract(j.value, '$.data_inicio')`,
          fim: sql`json_extract(j.value, '$.data_fim')`,
          horaInicio: sql`null`,
          horaFim: sql`null`,
          dias: sql`json_extract(j.value, '$.dias_semana')`,
        },
        sql`json_extract(j.value, '$.day')`,
      )} as v from json_each(${JSON.stringify(cases)}) j order by j.key`,
    );
    expect(rows).toHaveLength(cases.length);
    const differ = cases.filter((c, i) => coversDayOf(c, c.day) !== (rows[i]!.v === 1));
    expect(differ).toEqual([]);
    // Some of each answer, so the comparison means something.
    expect(rows.filter((r) => r.v === 1).length).toBeGreaterThan(50);
    expect(rows.filter((r) => r.v === 0).length).toBeGreaterThan(50);
  });
});
