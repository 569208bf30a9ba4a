import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';
import { emitInvoiceEvent } from './billing-events.ts';
import { lockSettleable, withLines, type InvoiceWithLines } from './invoices.ts';
import type { InvoiceRow, SubscriptionRow } from './rows.ts';
import { settleSubscriptionPayment } from './subscriptions.ts';

export type InvoicePayment = { invoice: InvoiceWithLines; subscription: SubscriptionRow | null };

/**
 * An open (or uncollectible) invoice is paid: by an operator for the manual provider, by Stripe's
 * verified webhook for the Stripe one. In one transaction the invoice becomes paid and its
 * subscription active with its plan's entitlements.
 */
export async function markInvoicePaid(db: Db, invoiceId: number, payment: { reference: string | null }, now = new Date()): Promise<InvoicePayment> {
  return db.transaction((trx) => payInvoice(trx, invoiceId, payment, now));
}

/** markInvoicePaid inside a caller's transaction (the webhook's, which also records the event). */
export async function payInvoice(trx: Knex.Transaction, invoiceId: number, payment: { reference: string | null }, now = new Date()): Promise<InvoicePayment> {
  // Subscription first, then invoice: the order cancelling takes them in, so the two never deadlock.
  const owner = (await trx<InvoiceRow>('invoices').where({ id: invoiceId }).first('subscription_id')) as Pick<InvoiceRow, 'subscription_id'> | undefined;
  if (owner?.subscription_id) await trx('subscriptions').where({ id: owner.subscription_id }).forUpdate().first('id');
  const invoice = await lockSettleable(trx, invoiceId);
  const [paid] = await trx<InvoiceRow>('invoices')
    .where({ id: invoice.id })
    .update({ status: 'paid', paid_at: now, payment_reference: payment.reference, updated_at: now })
    .returning('*');
  await emitInvoiceEvent(trx, 'invoice.paid', paid as InvoiceRow);
  const subscription = await settleSubscriptionPayment(trx, paid as InvoiceRow, now);
  return { invoice: await withLines(trx, paid as InvoiceRow), subscription };
}
