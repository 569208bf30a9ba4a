import type { Knex } from 'knex';
import { createDraftInvoice, finalizeInvoice, type InvoiceWithLines } from './invoices.ts';
import { prorate } from './proration.ts';
import type { BillingSettings, SubscriptionRow } from './rows.ts';

/** What a mid-period change was and becomes: a label for the invoice's lines and its price per period. */
export type ProratedTerms = { label: string; priceMinor: number };

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The invoice of a change in the middle of a period (an upgrade, more add-on units), finalized now:
 * the old terms' unused time credited (no line when there were none: a first purchase) and the new
 * terms' remaining time charged, by the second (prorate). Null when nothing is owed: the period's
 * last second, or a period over but not yet renewed by the sweep, whose renewal bills the new terms.
 */
export async function openProrationInvoice(
  trx: Knex.Transaction,
  subscription: SubscriptionRow,
  change: { currency: string; from: ProratedTerms | null; to: ProratedTerms },
  settings: BillingSettings,
  now: Date,
): Promise<InvoiceWithLines | null> {
  if (now >= subscription.current_period_end) return null;
  const proration = prorate({
    periodStart: subscription.current_period_start,
    periodEnd: subscription.current_period_end,
    at: now,
    oldPriceMinor: change.from?.priceMinor ?? 0,
    newPriceMinor: change.to.priceMinor,
  });
  if (proration.netMinor <= 0) return null;
  const rest = `${day(now)} to ${day(subscription.current_period_end)}`;
  const draft = await createDraftInvoice(
    trx,
    {
      teamId: subscription.team_id,
      subscriptionId: subscription.id,
      currency: change.currency,
      provider: subscription.provider,
      period: { start: now, end: subscription.current_period_end },
      items: [
        ...(change.from ? [{ description: `Unused time on ${change.from.label}, ${rest}`, quantity: 1, unitAmountMinor: proration.creditMinor }] : []),
        { description: `Remaining time on ${change.to.label}, ${rest}`, quantity: 1, unitAmountMinor: proration.chargeMinor },
      ],
    },
    settings,
  );
  const open = await finalizeInvoice(trx, draft.id, settings, now);
  return { ...open, lines: draft.lines };
}
