import { describe, expect, it } from 'vitest';
import { prorate } from '../../shared/domains/billing/proration.ts';

const start = new Date('2026-11-01T00:00:00Z');
const end = new Date('2026-12-01T00:00:00Z'); // 30 days = 2 592 000 s

describe('prorate (by the second)', () => {
  it('credits half the old price and charges half the new one at the middle of the period', () => {
    expect(prorate({ periodStart: start, periodEnd: end, at: new Date('2026-11-16T00:00:00Z'), oldPriceMinor: 1500, newPriceMinor: 4900 })).toEqual({
      periodSeconds: 2_592_000,
      remainingSeconds: 1_296_000,
      creditMinor: -750,
      chargeMinor: 2450,
      netMinor: 1700,
    });
  });

  it('a downgrade nets a credit', () => {
    expect(prorate({ periodStart: start, periodEnd: end, at: new Date('2026-11-16T00:00:00Z'), oldPriceMinor: 4900, newPriceMinor: 1500 }).netMinor).toBe(
      -1700,
    );
  });

  it('counts whole seconds: one second more or less moves the amounts by price / period seconds', () => {
    const price = 2_592_000; // one minor unit per second
    const at = new Date('2026-11-20T12:34:56Z');
    const base = prorate({ periodStart: start, periodEnd: end, at, oldPriceMinor: price, newPriceMinor: price * 2 });
    const later = prorate({ periodStart: start, periodEnd: end, at: new Date(at.getTime() + 1000), oldPriceMinor: price, newPriceMinor: price * 2 });
    expect(base.remainingSeconds - later.remainingSeconds).toBe(1);
    expect(later.creditMinor - base.creditMinor).toBe(1);
    expect(base.chargeMinor - later.chargeMinor).toBe(2);
    // A started second is used: 999 ms later still counts the same whole seconds left.
    expect(prorate({ periodStart: start, periodEnd: end, at: new Date(at.getTime() + 999), oldPriceMinor: price, newPriceMinor: price }).remainingSeconds).toBe(
      base.remainingSeconds - 1,
    );
  });

  it('rounds each line half up to a minor unit', () => {
    // 1000 × 1/3 = 333.33 → 333; 1000 × 2/3 = 666.67 → 667; 3 × 1/2 = 1.5 → 2
    const third = new Date(start.getTime() + (2_592_000_000 * 2) / 3);
    expect(prorate({ periodStart: start, periodEnd: end, at: third, oldPriceMinor: 1000, newPriceMinor: 1000 })).toMatchObject({
      creditMinor: -333,
      chargeMinor: 333,
      netMinor: 0,
    });
    expect(
      prorate({ periodStart: start, periodEnd: end, at: new Date(start.getTime() + 2_592_000_000 / 3), oldPriceMinor: 1000, newPriceMinor: 0 }),
    ).toMatchObject({ creditMinor: -667, chargeMinor: 0 });
    expect(prorate({ periodStart: start, periodEnd: end, at: new Date('2026-11-16T00:00:00Z'), oldPriceMinor: 3, newPriceMinor: 3 })).toMatchObject({
      creditMinor: -2,
      chargeMinor: 2,
    });
  });

  it('charges the whole price at the start and nothing at the end', () => {
    expect(prorate({ periodStart: start, periodEnd: end, at: start, oldPriceMinor: 1500, newPriceMinor: 4900 })).toMatchObject({
      creditMinor: -1500,
      chargeMinor: 4900,
    });
    expect(prorate({ periodStart: start, periodEnd: end, at: end, oldPriceMinor: 1500, newPriceMinor: 4900 })).toMatchObject({
      creditMinor: 0,
      chargeMinor: 0,
      netMinor: 0,
    });
  });

  it('stays exact for a yearly period at the highest price (past 2^53 in between)', () => {
    const yearEnd = new Date('2027-11-01T00:00:00Z');
    const result = prorate({
      periodStart: start,
      periodEnd: yearEnd,
      at: new Date('2027-05-02T12:00:00Z'),
      oldPriceMinor: 100_000_000,
      newPriceMinor: 99_999_999,
    });
    expect(result.periodSeconds).toBe(365 * 86_400);
    expect(result.remainingSeconds).toBe(182 * 86_400 + 12 * 3600);
    expect(result.creditMinor).toBe(-Math.round((100_000_000 * result.remainingSeconds) / result.periodSeconds));
  });

  it('refuses a change outside the period, an empty period and fractional prices', () => {
    expect(() => prorate({ periodStart: start, periodEnd: end, at: new Date('2026-12-02T00:00:00Z'), oldPriceMinor: 1, newPriceMinor: 1 })).toThrow(RangeError);
    expect(() => prorate({ periodStart: end, periodEnd: start, at: end, oldPriceMinor: 1, newPriceMinor: 1 })).toThrow(RangeError);
    expect(() => prorate({ periodStart: start, periodEnd: end, at: start, oldPriceMinor: 1.5, newPriceMinor: 1 })).toThrow(RangeError);
  });
});
