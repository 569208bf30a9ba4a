import type { Knex } from 'knex';
import type Stripe from 'stripe';
import type { Db } from '../../../db/knex.ts';
import { payInvoice } from '../invoice-payments.ts';
import type { InvoiceRow } from '../rows.ts';
import { recordDispute } from './stripe-disputes.ts';
import { confirmRefunds, settleRefund } from './stripe-refund-events.ts';

/**
 * What Berth did with one verified event; `duplicate`: its id was seen before, nothing was done again.
 * `paid_void`: a payment for an invoice voided meanwhile, nothing settled: the operators refund it.
 */
export const STRIPE_EVENT_OUTCOMES = [
  'paid',
  'paid_void',
  'payment_failed',
  'refunded',
  'refund_failed',
  'disputed',
  'dispute_closed',
  'ignored',
  'duplicate',
] as const;
export type StripeEventOutcome = (typeof STRIPE_EVENT_OUTCOMES)[number];

/**
 * Acts on a verified Stripe event once. The event's id is recorded in the same transaction as its
 * effect, so a replay (Stripe retries, or a captured request sent again within the tolerance) finds
 * it and does nothing; two deliveries at once wait on the id's row and the second sees it.
 */
export async function handleStripeEvent(db: Db, event: Stripe.Event, now = new Date()): Promise<StripeEventOutcome> {
  return db.transaction(async (trx) => {
    const recorded = await trx('stripe_events')
      .insert({ id: event.id, type: event.type, outcome: 'ignored', received_at: now })
      .onConflict('id')
      .ignore()
      .returning('id');
    if (recorded.length === 0) return 'duplicate';
    const outcome = await act(trx, event, now);
    if (outcome !== 'ignored') await trx('stripe_events').where({ id: event.id }).update({ outcome });
    return outcome;
  });
}

async function act(trx: Knex.Transaction, event: Stripe.Event, now: Date): Promise<StripeEventOutcome> {
  if (event.type === 'payment_intent.succeeded') {
    const invoice = await invoiceOf(trx, event.data.object);
    // Voided before the money came: nothing to settle, and the operators must pay it back (recorded, logged at error).
    if (invoice?.status === 'void') return 'paid_void';
    // Paid already (an operator was quicker, or this event came before): nothing to settle.
    if (!invoice || (invoice.status !== 'open' && invoice.status !== 'uncollectible')) return 'ignored';
    await payInvoice(trx, invoice.id, { reference: event.data.object.id }, now);
    return 'paid';
  }
  if (event.type === 'payment_intent.payment_failed') {
    const intent = event.data.object;
    const invoice = await invoiceOf(trx, intent);
    if (!invoice || invoice.status !== 'open') return 'ignored';
    // Only noted: the invoice stays open and the dunning sweep decides what the subscription becomes.
    const failure = (intent.last_payment_error?.message ?? intent.last_payment_error?.code ?? 'The payment failed').slice(0, 500);
    await trx('invoices').where({ id: invoice.id }).update({ payment_failed_at: now, payment_failure: failure, updated_at: now });
    return 'payment_failed';
  }
  if (event.type === 'charge.refunded') return confirmRefunds(trx, event.data.object, now);
  if (event.type === 'refund.updated' || event.type === 'charge.refund.updated' || event.type === 'refund.failed')
    return settleRefund(trx, event.data.object, now);
  if (event.type === 'charge.dispute.created' || event.type === 'charge.dispute.updated') return recordDispute(trx, event.data.object, false, now);
  if (event.type === 'charge.dispute.closed') return recordDispute(trx, event.data.object, true, now);
  return 'ignored';
}

/**
 * The Berth invoice a PaymentIntent pays, only when everything agrees: the invoice id and team id
 * of its metadata name the same invoice (no paying one team's invoice with another's metadata), the
 * invoice is collected by Stripe, the currency and amount are the invoice's, and the PaymentIntent
 * is the one made for it (once stored).
 */
async function invoiceOf(trx: Knex.Transaction, intent: Stripe.PaymentIntent): Promise<InvoiceRow | null> {
  const invoiceId = idOf(intent.metadata?.invoice_id);
  const teamId = idOf(intent.metadata?.team_id);
  if (invoiceId === null || teamId === null) return null;
  const invoice = (await trx<InvoiceRow>('invoices').where({ id: invoiceId, team_id: teamId, provider: 'stripe' }).first()) as InvoiceRow | undefined;
  if (!invoice) return null;
  if (intent.currency.toUpperCase() !== invoice.currency || intent.amount !== invoice.total_minor) return null;
  if (invoice.provider_ref !== null && invoice.provider_ref !== intent.id) return null;
  return invoice;
}

function idOf(value: string | undefined): number | null {
  return value !== undefined && /^[1-9]\d{0,9}$/.test(value) && Number(value) <= 2_147_483_647 ? Number(value) : null;
}
