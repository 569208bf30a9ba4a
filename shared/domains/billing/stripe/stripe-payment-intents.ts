import type { Knex } from 'knex';
import type Stripe from 'stripe';
import type { InvoiceRow } from '../rows.ts';

/**
 * The Stripe-collected invoice a PaymentIntent was made for (its id is kept in `provider_ref` when
 * it is made), for events that name the PaymentIntent of a payment: refunds, disputes.
 */
export async function invoiceOfPaymentIntent(trx: Knex.Transaction, paymentIntent: string | Stripe.PaymentIntent | null): Promise<InvoiceRow | null> {
  const intentId = typeof paymentIntent === 'string' ? paymentIntent : (paymentIntent?.id ?? null);
  if (!intentId) return null;
  const invoice = (await trx<InvoiceRow>('invoices').where({ provider: 'stripe', provider_ref: intentId }).whereNot({ status: 'draft' }).first()) as
    InvoiceRow | undefined;
  return invoice ?? null;
}
