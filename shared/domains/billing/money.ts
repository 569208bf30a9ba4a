import type { BillingInterval } from './rows.ts';

/**
 * Tax on an amount in minor units, rounded half away from zero to a whole minor unit (the usual
 * rule for VAT per invoice). Integer arithmetic only: 2000 bps of 4900 is exactly 980.
 */
export function taxOf(amountMinor: number, rateBps: number): number {
  if (!Number.isSafeInteger(amountMinor) || !Number.isInteger(rateBps) || rateBps < 0)
    throw new RangeError('amount and rate must be integers, the rate not negative');
  const sign = amountMinor < 0 ? -1 : 1;
  return sign * Math.floor((Math.abs(amountMinor) * rateBps + 5_000) / 10_000);
}

/** "20 %", "7.5 %": a rate in basis points as people read it. */
export function percentOf(rateBps: number): string {
  return `${(rateBps / 100).toString()} %`;
}

/**
 * The end of a billing period that starts at `start`: one calendar month or year later in UTC, the
 * day clamped to the month's last (31 January + 1 month = 28/29 February), as Stripe anchors periods.
 */
export function addInterval(start: Date, interval: BillingInterval, count = 1): Date {
  const months = interval === 'year' ? 12 * count : count;
  const target = new Date(
    Date.UTC(
      start.getUTCFullYear(),
      start.getUTCMonth() + months,
      1,
      start.getUTCHours(),
      start.getUTCMinutes(),
      start.getUTCSeconds(),
      start.getUTCMilliseconds(),
    ),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(start.getUTCDate(), lastDay));
  return target;
}

/** An amount in minor units as people read it, with its currency's own decimals: 5880 EUR → "€58.80". */
export function formatMoney(amountMinor: number, currency: string): string {
  const format = new Intl.NumberFormat('en-GB', { style: 'currency', currency });
  const decimals = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amountMinor / 10 ** decimals);
}
