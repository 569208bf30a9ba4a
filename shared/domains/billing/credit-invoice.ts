import type { Db } from '../../db/knex.ts';
import { DomainError, UpstreamFailed } from '../../errors.ts';
import { enqueue, type Queues } from '../../jobs/queues.ts';
import type { Logger } from '../../logger.ts';
import { BillingConflict } from './billing-conflict.ts';
import { findCreditNote, issueCreditNote, type NewCreditNote } from './credit-notes.ts';
import type { RefundOutcome } from './providers/payment-provider.ts';
import { providerNamed } from './providers/providers.ts';
import type { BillingSettings, CreditNoteRow, InvoiceRow } from './rows.ts';

/**
 * An operator credits a paid invoice: the credit note is issued and committed (numbered, counted
 * against the invoice), then, when it is to be paid back through the provider, refunded
 * (refundCreditNote), then mailed with its PDF (`mail.credit-note`, the worker re-reads the row, so
 * the mail tells the refund as it stands). The refund comes first: money owed back must not wait on
 * Redis. A mail that cannot be queued is logged and the note still answered (it is committed and
 * refunded; the PDF stays downloadable). A refund the provider refuses leaves the credit note issued
 * with refund status `failed`, and is a 502 naming the retry route (the mail is queued all the same).
 */
export async function creditInvoice(
  deps: { db: Db; queues: Queues; logger: Logger },
  input: NewCreditNote,
  settings: BillingSettings,
  now = new Date(),
): Promise<CreditNoteRow> {
  const creditNote = await deps.db.transaction((trx) => issueCreditNote(trx, input, settings.invoicePrefix, now));
  try {
    return creditNote.refund_status === 'pending' ? await refundCreditNote(deps, creditNote.id, settings, now) : creditNote;
  } finally {
    await mailCreditNote(deps, creditNote);
  }
}

async function mailCreditNote(deps: { queues: Queues; logger: Logger }, creditNote: CreditNoteRow): Promise<void> {
  try {
    await enqueue(deps.queues, 'mail.credit-note', { creditNoteId: creditNote.id });
  } catch (error) {
    deps.logger.error(
      { err: (error as Error).message, creditNoteId: creditNote.id, number: creditNote.number },
      'credit note issued, but its mail could not be queued',
    );
  }
}

/**
 * Asks the invoice's provider to pay the credit note back, once its row is committed; an operator's
 * retry (`POST /v1/admin/billing/credit-notes/{id}/refund`) calls it again for a `pending` or
 * `failed` one (the provider looks for the note's refund before it makes one: one refund however
 * often it is asked). The answer is recorded only over `pending` or `failed`, so a webhook that confirmed the
 * refund meanwhile is not undone.
 */
export async function refundCreditNote(deps: { db: Db }, creditNoteId: number, settings: BillingSettings, now = new Date()): Promise<CreditNoteRow> {
  const creditNote = await findCreditNote(deps.db, null, creditNoteId);
  if (creditNote.refund_status !== 'pending' && creditNote.refund_status !== 'failed') {
    throw new BillingConflict(
      'refund_not_retryable',
      `Credit note ${creditNote.number} is ${creditNote.refund_status}; only a pending or failed refund is asked for again`,
    );
  }
  const invoice = (await deps.db<InvoiceRow>('invoices').where({ id: creditNote.invoice_id }).first()) as InvoiceRow;
  const provider = providerNamed(invoice.provider);
  let outcome: RefundOutcome;
  try {
    outcome = provider.refund ? await provider.refund(creditNote, invoice, { db: deps.db, settings }) : { outcome: 'not_applicable' };
  } catch (error) {
    if (error instanceof DomainError) throw error;
    outcome = { outcome: 'failed', reason: 'The payment provider could not be reached' };
  }
  const [recorded] = await deps
    .db<CreditNoteRow>('credit_notes')
    .where({ id: creditNote.id })
    .whereIn('refund_status', ['pending', 'failed'])
    .update(changesOf(outcome, now))
    .returning('*');
  if (outcome.outcome === 'failed') {
    throw new UpstreamFailed(
      'payments',
      `Credit note ${creditNote.number} is issued, but the payment provider refused its refund: ${outcome.reason}. Ask again with POST /v1/admin/billing/credit-notes/${creditNote.id}/refund`,
    );
  }
  return (recorded as CreditNoteRow | undefined) ?? findCreditNote(deps.db, null, creditNote.id);
}

function changesOf(outcome: RefundOutcome, now: Date): Partial<CreditNoteRow> {
  switch (outcome.outcome) {
    case 'refunded':
      return { refund_status: 'refunded', provider_ref: outcome.reference, refund_failure: null, refunded_at: now, updated_at: now };
    case 'pending':
      return { refund_status: 'pending', provider_ref: outcome.reference, refund_failure: null, updated_at: now };
    case 'failed':
      return { refund_status: 'failed', refund_failure: outcome.reason, updated_at: now };
    case 'not_applicable':
      return { refund_status: 'not_applicable', updated_at: now };
  }
}
