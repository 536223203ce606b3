/**
 * The day's peak demand (docs/decisions.md#d26), by hand-computed cases: the pure function alone,
 * before any SQL feeds it. Times are minutes of the day; `gap` answers the trip plus the margin.
 */
import { describe, expect, it } from 'vitest';
import { chains, peakDemand, type Gap, type PeakItem } from '../../../src/services/planning/peak';

const h = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
/** An event from HH:MM to HH:MM (an end not after the start is the next day, as the agenda's rule). */
const ev = (id: string, from: string, to: string, need: number): PeakItem => {
  const start = h(from);
  const end = h(to) > start ? h(to) : h(to) + 1440;
  return { id, start, end, need };
};
/** Travel plus margin as a table by id pair (either way); a pair not listed: `otherwise`. */
const gapOf =
  (pairs: Record<string, number>, otherwise: number | undefined): Gap =>
  (a, b) =>
    pairs[`${a.id}>${b.id}`] ?? pairs[`${b.id}>${a.id}`] ?? otherwise;
/** The same city everywhere: 40 minutes of travel (DESLOCAMENTO_MESMA_CIDADE_MIN) plus a 30-minute margin. */
const sameCity = gapOf({}, 70);

describe('peakDemand', () => {
  it('no event needs nobody; one event needs its own need', () => {
    expect(peakDemand([], sameCity)).toBe(0);
    expect(peakDemand([ev('a', '14:00', '17:00', 3)], sameCity)).toBe(3);
    expect(peakDemand([ev('a', '14:00', '17:00', 0), ev('b', '15:00', '16:00', 2)], sameCity)).toBe(2);
  });

  it('a colação and a baile of one class, far enough apart, share people: the larger need', () => {
    // 17:00 + 40 min of travel + 30 of margin = 18:10 <= 22:00.
    const day = [ev('colacao', '14:00', '17:00', 3), ev('baile', '22:00', '04:00', 4)];
    expect(peakDemand(day, sameCity)).toBe(4);
  });

  it('the same two events share nobody when travel does not allow it', () => {
    // The baile 3 hours away by the matrix: 17:00 + 180 + 30 = 20:30 > 19:30.
    const day = [ev('colacao', '14:00', '17:00', 3), ev('baile', '19:30', '23:30', 4)];
    expect(peakDemand(day, gapOf({ 'colacao>baile': 210 }, 70))).toBe(7);
    // ... and do at 21:00 (20:30 <= 21:00).
    expect(peakDemand([day[0]!, ev('baile', '21:00', '01:00', 4)], gapOf({ 'colacao>baile': 210 }, 70))).toBe(4);
  });

  it('exactly the trip plus the margin is enough; a minute less is not', () => {
    expect(peakDemand([ev('a', '14:00', '17:00', 2), ev('b', '18:10', '20:00', 2)], sameCity)).toBe(2);
    expect(peakDemand([ev('a', '14:00', '17:00', 2), ev('b', '18:09', '20:00', 2)], sameCity)).toBe(4);
  });

  it('three overlapping events share nobody: the sum', () => {
    const day = [ev('a', '18:00', '22:00', 2), ev('b', '19:00', '23:00', 3), ev('c', '21:00', '02:00', 4)];
    expect(peakDemand(day, sameCity)).toBe(9);
  });

  it('a city unknown on either side: only overlap counts (back to back shares)', () => {
    const day = [ev('a', '14:00', '16:00', 2), ev('b', '16:00', '18:00', 3)];
    expect(peakDemand(day, gapOf({}, undefined))).toBe(3);
    expect(peakDemand(day, sameCity)).toBe(5);
  });

  it('a chain of three compatible events needs its largest need', () => {
    const day = [ev('a', '08:00', '10:00', 3), ev('b', '11:30', '13:00', 2), ev('c', '14:30', '16:00', 4)];
    expect(peakDemand(day, sameCity)).toBe(4);
  });

  it('a staircase: A and C chain, B overlaps both: the largest pair at one moment', () => {
    // A 08-12 (2) and C 13:10-17 (2) chain (12:00 + 70 = 13:10); B 10-14 (2) overlaps both. Two
    // people do A then C, two do B: 4, which is also A + B (or B + C) at their common moment.
    const day = [ev('a', '08:00', '12:00', 2), ev('b', '10:00', '14:00', 2), ev('c', '13:10', '17:00', 2)];
    expect(peakDemand(day, sameCity)).toBe(4);
  });

  it("a morning's people split over two overlapping afternoon events", () => {
    // A (5) then B and C (2 each, overlapping each other): four of A's five go on; the peak is A's 5.
    const day = [ev('a', '08:00', '10:00', 5), ev('b', '12:00', '14:00', 2), ev('c', '12:00', '14:00', 2)];
    expect(peakDemand(day, sameCity)).toBe(5);
    // Afternoon larger than the morning: B + C = 6 at one moment, A's 2 among them.
    const more = [ev('a', '08:00', '10:00', 2), ev('b', '12:00', '14:00', 3), ev('c', '12:00', '14:00', 3)];
    expect(peakDemand(more, sameCity)).toBe(6);
  });

  it('a whole-day event overlaps everything of its day', () => {
    const day = [ev('dia', '00:00', '00:00', 1), ev('noite', '20:00', '23:00', 1)];
    expect(peakDemand(day, sameCity)).toBe(2);
  });

  it('the order of the items does not matter', () => {
    const day = [ev('c', '14:30', '16:00', 4), ev('a', '08:00', '10:00', 3), ev('b', '11:30', '13:00', 2)];
    expect(peakDemand(day, sameCity)).toBe(4);
    expect(peakDemand([...day].reverse(), sameCity)).toBe(4);
  });

  it('a trip that is long one way only: the rule reads the direction travelled', () => {
    // a -> b takes 100 + margin; b -> a is never travelled (b is later).
    const day = [ev('a', '08:00', '10:00', 2), ev('b', '11:00', '12:00', 2)];
    expect(peakDemand(day, gapOf({ 'a>b': 130 }, 70))).toBe(4);
    expect(chains(day[0]!, day[1]!, gapOf({ 'a>b': 60 }, 70))).toBe(true);
  });

  it('a busy day of many events answers quickly and never above the sum', () => {
    const day = Array.from({ length: 60 }, (_, i) =>
      ev(
        `e${i}`,
        `${String(8 + (i % 12)).padStart(2, '0')}:00`,
        `${String(9 + (i % 12)).padStart(2, '0')}:30`,
        1 + (i % 3),
      ),
    );
    const sum = day.reduce((n, e) => n + e.need, 0);
    const peak = peakDemand(day, sameCity);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(sum);
    // Each hour slot holds 5 events overlapping each other (needs 1..3): at least one slot's sum.
    const slot = day.filter((_, i) => i % 12 === 0).reduce((n, e) => n + e.need, 0);
    expect(peak).toBeGreaterThanOrEqual(slot);
  });
});
