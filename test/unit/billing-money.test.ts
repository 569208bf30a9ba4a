import { describe, expect, it } from 'vitest';
import { formatInvoiceNumber } from '../../shared/domains/billing/invoice-numbers.ts';
import { addInterval, percentOf, taxOf } from '../../shared/domains/billing/money.ts';

describe('taxOf', () => {
  it.each([
    [4900, 2000, 980],
    [1000, 1950, 195],
    [1, 5000, 1], // 0.5 rounds half up
    [3, 1500, 0], // 0.45 rounds down
    [0, 2000, 0],
    [999_999_999, 2100, 210_000_000], // 209 999 999.79
    [-4900, 2000, -980], // credits round symmetrically
    [4900, 0, 0],
  ])('%i at %i bps is %i', (amount, rate, tax) => {
    expect(taxOf(amount, rate)).toBe(tax);
  });

  it('refuses fractions of a minor unit and negative rates', () => {
    expect(() => taxOf(10.5, 2000)).toThrow(RangeError);
    expect(() => taxOf(10, -1)).toThrow(RangeError);
  });

  it('shows the rate as people read it', () => {
    expect(percentOf(2000)).toBe('20 %');
    expect(percentOf(750)).toBe('7.5 %');
  });
});

describe('addInterval', () => {
  it.each([
    ['2026-01-15T10:20:30.456Z', 'month', '2026-02-15T10:20:30.456Z'],
    ['2026-01-31T00:00:00.000Z', 'month', '2026-02-28T00:00:00.000Z'],
    ['2028-01-31T00:00:00.000Z', 'month', '2028-02-29T00:00:00.000Z'],
    ['2026-12-31T23:59:59.000Z', 'month', '2027-01-31T23:59:59.000Z'],
    ['2028-02-29T12:00:00.000Z', 'year', '2029-02-28T12:00:00.000Z'],
    ['2026-03-31T08:00:00.000Z', 'month', '2026-04-30T08:00:00.000Z'],
  ] as const)('%s + one %s = %s', (start, interval, end) => {
    expect(addInterval(new Date(start), interval).toISOString()).toBe(end);
  });
});

describe('formatInvoiceNumber', () => {
  it('pads the sequence to six digits and grows past them', () => {
    expect(formatInvoiceNumber('BTH', 2026, 1)).toBe('BTH-2026-000001');
    expect(formatInvoiceNumber('BTH', 2026, 1_234_567)).toBe('BTH-2026-1234567');
  });
});
