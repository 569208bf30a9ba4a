import { describe, expect, it } from 'vitest';
import { periodEndAfter } from '../../shared/domains/billing/billing-periods.ts';
import { addInterval } from '../../shared/domains/billing/money.ts';
import type { BillingInterval } from '../../shared/domains/billing/rows.ts';

/** Successive period ends of a subscription anchored at `anchor`, each period starting where the last ended. */
function periodEnds(anchor: string, interval: BillingInterval, count: number): string[] {
  const ends: string[] = [];
  let start = new Date(anchor);
  for (let index = 0; index < count; index += 1) {
    start = periodEndAfter(new Date(anchor), interval, start);
    ends.push(start.toISOString());
  }
  return ends;
}

describe('periodEndAfter', () => {
  it("keeps the anchor's day of month: 31 January → 28 February → 31 March → 30 April → 31 May", () => {
    expect(periodEnds('2026-01-31T10:00:00.000Z', 'month', 4)).toEqual([
      '2026-02-28T10:00:00.000Z',
      '2026-03-31T10:00:00.000Z',
      '2026-04-30T10:00:00.000Z',
      '2026-05-31T10:00:00.000Z',
    ]);
    expect(periodEnds('2028-01-31T00:00:00.000Z', 'month', 2)).toEqual(['2028-02-29T00:00:00.000Z', '2028-03-31T00:00:00.000Z']);
  });

  it('where chaining one month at a time drifts to the 28th', () => {
    const chained = addInterval(addInterval(new Date('2026-01-31T10:00:00.000Z'), 'month'), 'month');
    expect(chained.toISOString()).toBe('2026-03-28T10:00:00.000Z');
  });

  it('renews a yearly 29 February on 28 February, and on 29 February again in a leap year', () => {
    expect(periodEnds('2024-02-29T12:00:00.000Z', 'year', 4)).toEqual([
      '2025-02-28T12:00:00.000Z',
      '2026-02-28T12:00:00.000Z',
      '2027-02-28T12:00:00.000Z',
      '2028-02-29T12:00:00.000Z',
    ]);
  });

  it('finds the period a start falls in, however far from the anchor (the sweep catching up)', () => {
    const anchor = new Date('2024-01-31T08:00:00.000Z');
    expect(periodEndAfter(anchor, 'month', new Date('2026-11-30T08:00:00.000Z')).toISOString()).toBe('2026-12-31T08:00:00.000Z');
    expect(periodEndAfter(anchor, 'month', new Date('2026-11-30T07:59:59.999Z')).toISOString()).toBe('2026-11-30T08:00:00.000Z');
    expect(periodEndAfter(anchor, 'month', new Date('2026-02-10T00:00:00.000Z')).toISOString()).toBe('2026-02-28T08:00:00.000Z');
    expect(periodEndAfter(anchor, 'year', new Date('2031-06-01T00:00:00.000Z')).toISOString()).toBe('2032-01-31T08:00:00.000Z');
  });

  it('ends the first period one interval after the anchor', () => {
    expect(periodEndAfter(new Date('2026-11-25T09:30:00.000Z'), 'month', new Date('2026-11-25T09:30:00.000Z')).toISOString()).toBe('2026-12-25T09:30:00.000Z');
    expect(periodEndAfter(new Date('2026-11-25T09:30:00.000Z'), 'year', new Date('2026-11-25T09:30:00.000Z')).toISOString()).toBe('2027-11-25T09:30:00.000Z');
  });
});
