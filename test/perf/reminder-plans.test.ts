// The reminders job and the calendar feed read by index: no statement scans a whole table.
import { env } from 'cloudflare:test';
import { SQLiteAsyncDialect } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import { getConfig } from '../../src/env';
import { reminderStatements } from '../../src/services/operations/lembretes';
import { db } from '../helpers/factories';

const dialect = new SQLiteAsyncDialect();

async function plan(statement: Parameters<SQLiteAsyncDialect['sqlToQuery']>[0]) {
  const { sql, params } = dialect.sqlToQuery(statement);
  const rows = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return rows.results.map((r) => r.detail);
}

describe('scheduled job lembretes: query plans', () => {
  it('finds events by the data_evento index and this run’s rows by the execucao index (the WhatsApp and the missed-confirmation statements too)', async () => {
    const statements = reminderStatements(
      { db, config: getConfig(env) },
      new Date('2031-01-01T12:00:00.000Z'),
      crypto.randomUUID(),
    );
    expect(statements).toHaveLength(8);
    for (const [i, s] of statements.entries()) {
      const details = await plan(s);
      const fullScans = details.filter(
        (d) =>
          /^SCAN (agenda|convites|lembretes_enviados|notifications|confiabilidade_eventos|profissionais|whatsapp_outbox)\b/.test(
            d,
          ) && !/USING/.test(d),
      );
      expect(fullScans, `statement ${i}: ${details.join(' | ')}`).toEqual([]);
    }
    expect((await plan(statements[0]!)).join(' ')).toContain('agenda_data_idx');
    expect((await plan(statements[3]!)).join(' ')).toContain('lembretes_execucao_idx');
    expect((await plan(statements[7]!)).join(' ')).toContain('lembretes_execucao_idx'); // the WhatsApp one, last
  });
});
