/**
 * Proration of a plan change by the second, Stripe's way: at the moment of the change the team is
 * credited the unused part of what it paid for the old plan and charged the same remaining time at
 * the new plan's price. Each line is rounded half up to a whole minor unit on its own (as Stripe
 * rounds each proration item). Pure: the caller decides what to invoice (wiring it to a
 * `PATCH /v1/billing/subscription` is not built yet). BigInt inside: price × seconds of a yearly
 * period can pass 2^53.
 */
export type ProrationInput = {
  periodStart: Date;
  periodEnd: Date;
  /** When the plan changes; whole seconds left until periodEnd count (a started second is used). */
  at: Date;
  oldPriceMinor: number;
  newPriceMinor: number;
};

export type Proration = {
  periodSeconds: number;
  remainingSeconds: number;
  /** Negative: what goes back for the old plan's unused time. */
  creditMinor: number;
  /** What the new plan costs for the same remaining time. */
  chargeMinor: number;
  /** charge + credit: positive for an upgrade, negative (a credit) for a downgrade. */
  netMinor: number;
};

export function prorate(input: ProrationInput): Proration {
  const { periodStart, periodEnd, at, oldPriceMinor, newPriceMinor } = input;
  for (const [name, price] of [
    ['oldPriceMinor', oldPriceMinor],
    ['newPriceMinor', newPriceMinor],
  ] as const) {
    if (!Number.isSafeInteger(price) || price < 0) throw new RangeError(`${name} must be a whole, non-negative number of minor units`);
  }
  const periodSeconds = Math.floor((periodEnd.getTime() - periodStart.getTime()) / 1000);
  if (!(periodSeconds > 0)) throw new RangeError('the period must end after it starts');
  if (at < periodStart || at > periodEnd) throw new RangeError('the change must fall within the period');
  const remainingSeconds = Math.floor((periodEnd.getTime() - at.getTime()) / 1000);
  const share = (price: number) => roundHalfUp(BigInt(price) * BigInt(remainingSeconds), BigInt(periodSeconds));
  const creditMinor = -share(oldPriceMinor);
  const chargeMinor = share(newPriceMinor);
  return { periodSeconds, remainingSeconds, creditMinor: creditMinor === 0 ? 0 : creditMinor, chargeMinor, netMinor: chargeMinor + creditMinor };
}

/** numerator / denominator rounded half up, both non-negative. */
function roundHalfUp(numerator: bigint, denominator: bigint): number {
  return Number((numerator * 2n + denominator) / (denominator * 2n));
}
