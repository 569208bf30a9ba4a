import type { Db } from '../../db/knex.ts';
import { DomainError, UpstreamFailed } from '../../errors.ts';
import { enqueue, type Queues } from '../../jobs/queues.ts';
import { markInvoicePaid } from './invoice-payments.ts';
import type { Collection } from './providers/payment-provider.ts';
import { providerNamed } from './providers/providers.ts';
import type { BillingSettings, InvoiceRow } from './rows.ts';

/**
 * What follows a finalization, once its transaction has committed: the invoice is mailed with its
 * PDF (`mail.invoice`, the worker re-reads the row), and its provider is asked for the money. A
 * provider paid at once (a card) has the invoice marked paid here; the manual provider answers
 * `pending` with the transfer instructions, the Stripe one with its PaymentIntent.
 */
export async function issueInvoice(deps: { db: Db; queues: Queues }, invoice: InvoiceRow, settings: BillingSettings): Promise<Collection> {
  await enqueue(deps.queues, 'mail.invoice', { invoiceId: invoice.id });
  return collectInvoice(deps, invoice, settings);
}

/**
 * Asks the invoice's provider for the money (again: Stripe's calls carry idempotency keys made from
 * the invoice, so a second ask answers the same PaymentIntent). A provider that fails or cannot be
 * reached is a 502 naming the way to ask again; the invoice stays open.
 */
export async function collectInvoice(deps: { db: Db }, invoice: InvoiceRow, settings: BillingSettings): Promise<Collection> {
  let collection: Collection;
  try {
    collection = await providerNamed(invoice.provider).collect(invoice, { db: deps.db, settings });
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new UpstreamFailed(
      'payments',
      `The payment provider did not take invoice ${invoice.number ?? invoice.id} just now; it stays open: ask again with POST /v1/billing/invoices/${invoice.id}/pay`,
    );
  }
  if (collection.outcome === 'paid') await markInvoicePaid(deps.db, invoice.id, { reference: collection.reference });
  return collection;
}
