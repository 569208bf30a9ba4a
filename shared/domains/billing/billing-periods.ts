import { addInterval } from './money.ts';
import type { BillingInterval } from './rows.ts';

/**
 * The end of the billing period that starts at `start`, for a subscription anchored at `anchor`:
 * the first anchor + n intervals (n ≥ 1) after `start`. Counting from the anchor rather than from
 * the previous period's end keeps the anchor's day of month: 31 January renews on 28 February, then
 * 31 March, not 28 March (Stripe's billing_cycle_anchor). The anchor is never after `start` (it is
 * the first paid period's start).
 */
export function periodEndAfter(anchor: Date, interval: BillingInterval, start: Date): Date {
  const monthsPerInterval = interval === 'year' ? 12 : 1;
  const monthsApart = (start.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (start.getUTCMonth() - anchor.getUTCMonth());
  // A guess at most one interval short (day clamping only ever moves an end earlier), then stepped on.
  let count = Math.max(1, Math.floor(monthsApart / monthsPerInterval));
  while (count > 1 && addInterval(anchor, interval, count - 1) > start) count -= 1;
  while (addInterval(anchor, interval, count) <= start) count += 1;
  return addInterval(anchor, interval, count);
}
