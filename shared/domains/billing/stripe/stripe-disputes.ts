import type { Knex } from 'knex';
import type Stripe from 'stripe';
import { emitDisputeEvent } from '../billing-events.ts';
import type { InvoiceDisputeRow } from '../rows.ts';
import { invoiceOfPaymentIntent } from './stripe-payment-intents.ts';

/**
 * A dispute (chargeback) Stripe reports on an invoice's payment, matched by its PaymentIntent: the
 * first report records it (`invoice.disputed`), later ones update its status, and its close
 * (`invoice.dispute_closed`) with `lost` adds its amount to the invoice's `amount_lost_minor`, once.
 * Entitlements are not changed: whether the team keeps its plan is the operator's decision.
 */
export async function recordDispute(
  trx: Knex.Transaction,
  dispute: Stripe.Dispute,
  closing: boolean,
  now: Date,
): Promise<'disputed' | 'dispute_closed' | 'ignored'> {
  const invoice = await invoiceOfPaymentIntent(trx, dispute.payment_intent);
  if (!invoice) return 'ignored';
  const inserted = (await trx<InvoiceDisputeRow>('invoice_disputes')
    .insert({
      invoice_id: invoice.id,
      team_id: invoice.team_id,
      stripe_dispute_id: dispute.id,
      currency: dispute.currency.toUpperCase(),
      amount_minor: dispute.amount,
      reason: dispute.reason,
      status: dispute.status,
      created_at: now,
      updated_at: now,
    })
    .onConflict('stripe_dispute_id')
    .ignore()
    .returning('*')) as InvoiceDisputeRow[];
  const existing =
    inserted[0] ?? ((await trx<InvoiceDisputeRow>('invoice_disputes').where({ stripe_dispute_id: dispute.id }).forUpdate().first()) as InvoiceDisputeRow);
  const lost = closing && dispute.status === 'lost' && existing.lost_at === null;
  const [current] = (await trx<InvoiceDisputeRow>('invoice_disputes')
    .where({ id: existing.id })
    .update({
      status: dispute.status,
      amount_minor: dispute.amount,
      ...(closing ? { closed_at: existing.closed_at ?? now } : {}),
      ...(lost ? { lost_at: now } : {}),
      updated_at: now,
    })
    .returning('*')) as InvoiceDisputeRow[];
  if (lost)
    await trx('invoices')
      .where({ id: invoice.id })
      .update({ amount_lost_minor: trx.raw('amount_lost_minor + ?', [dispute.amount]), updated_at: now });
  if (inserted.length > 0) await emitDisputeEvent(trx, 'invoice.disputed', current!, invoice);
  if (closing) await emitDisputeEvent(trx, 'invoice.dispute_closed', current!, invoice);
  return closing ? 'dispute_closed' : 'disputed';
}

/** The invoice's disputes, oldest first. */
export async function disputesOf(db: Knex | Knex.Transaction, invoiceId: number): Promise<InvoiceDisputeRow[]> {
  return (await db<InvoiceDisputeRow>('invoice_disputes').where({ invoice_id: invoiceId }).orderBy('id')) as InvoiceDisputeRow[];
}
