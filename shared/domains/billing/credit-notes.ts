import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';
import { NotFound } from '../../errors.ts';
import { BillingConflict } from './billing-conflict.ts';
import { emitCreditNoteIssued } from './billing-events.ts';
import { nextCreditNoteNumber } from './credit-note-numbers.ts';
import { providerNamed } from './providers/providers.ts';
import type { CreditNoteRow, InvoiceRow, RefundStatus } from './rows.ts';

export type NewCreditNote = {
  invoiceId: number;
  /** Tax included; none: what is left of the invoice's total. */
  amountMinor?: number;
  reason: string;
  /** Ask the invoice's provider to pay it back (false: a credit only, `not_applicable`). */
  refund: boolean;
  issuedBy: number | null;
};

/**
 * The tax part of a credit note that takes the invoice's credited amount from `before` to `after`:
 * the invoice's tax × credited share, rounded half up to a whole minor unit, cumulatively — the
 * note's part is round(tax × after / total) − round(tax × before / total). So partial notes' tax
 * parts always add up to the tax of what was credited, and to the invoice's tax exactly once it is
 * credited in full (no cent lost or made up by rounding each note on its own). BigInt: no overflow.
 */
export function creditNoteTax(invoice: Pick<InvoiceRow, 'tax_minor' | 'total_minor'>, before: number, after: number): number {
  const share = (credited: number) => {
    if (invoice.total_minor === 0) return 0n;
    const total = BigInt(invoice.total_minor);
    return (BigInt(invoice.tax_minor) * BigInt(credited) * 2n + total) / (2n * total);
  };
  return Number(share(after) - share(before));
}

/**
 * A credit note for a paid invoice, in one transaction: the invoice's row locked (so concurrent notes
 * queue and the sum of its notes and lost disputes never passes its total: 409 `credit_exceeds_invoice`), the next
 * number of the credit note series, the invoice's `amount_credited_minor`, the `credit_note.issued`
 * event. The invoice stays `paid`. The refund itself is asked for after commit (refundCreditNote):
 * `pending` when the provider can refund the payment, else `not_applicable`.
 */
export async function issueCreditNote(trx: Knex.Transaction, input: NewCreditNote, prefix: string, now = new Date()): Promise<CreditNoteRow> {
  const invoice = (await trx<InvoiceRow>('invoices').where({ id: input.invoiceId }).whereNot({ status: 'draft' }).forUpdate().first()) as
    InvoiceRow | undefined;
  if (!invoice) throw new NotFound('Invoice not found');
  if (invoice.status !== 'paid')
    throw new BillingConflict('invoice_not_paid', `Invoice ${invoice.number} is ${invoice.status}; only a paid invoice is credited (an open one is voided)`);
  // What a lost dispute took back is no longer the customer's to be refunded.
  const remaining = invoice.total_minor - invoice.amount_credited_minor - invoice.amount_lost_minor;
  const amount = input.amountMinor ?? remaining;
  if (remaining <= 0 || amount > remaining) {
    throw new BillingConflict(
      'credit_exceeds_invoice',
      `Invoice ${invoice.number} has ${Math.max(remaining, 0)} of its ${invoice.total_minor} minor units left to credit (${invoice.amount_credited_minor} credited, ${invoice.amount_lost_minor} lost to disputes); a credit note of ${amount} would exceed it`,
    );
  }
  const after = invoice.amount_credited_minor + amount;
  const [creditNote] = await trx<CreditNoteRow>('credit_notes')
    .insert({
      team_id: invoice.team_id,
      invoice_id: invoice.id,
      number: await nextCreditNoteNumber(trx, now.getUTCFullYear(), prefix),
      status: 'issued',
      currency: invoice.currency,
      amount_minor: amount,
      tax_minor: creditNoteTax(invoice, invoice.amount_credited_minor, after),
      reason: input.reason,
      refund_status: refundStatusOf(invoice, input.refund),
      issued_by_user_id: input.issuedBy,
      created_at: now,
      updated_at: now,
    })
    .returning('*');
  await trx('invoices').where({ id: invoice.id }).update({ amount_credited_minor: after, updated_at: now });
  await emitCreditNoteIssued(trx, creditNote as CreditNoteRow, invoice);
  return creditNote as CreditNoteRow;
}

/**
 * `pending` when the provider can pay this invoice's money back (Stripe, paid by its PaymentIntent),
 * else `not_applicable`: an invoice an operator marked paid by hand (its payment reference is not
 * the PaymentIntent) was paid outside the provider, and the operator pays it back the same way.
 */
function refundStatusOf(invoice: InvoiceRow, refund: boolean): RefundStatus {
  if (!refund || !providerNamed(invoice.provider).refund || invoice.provider_ref === null) return 'not_applicable';
  if (invoice.payment_reference !== invoice.provider_ref) return 'not_applicable';
  return 'pending';
}

/** Credit notes newest first, of one team or all (operators), optionally of one invoice. */
export async function listCreditNotes(
  db: Db,
  filter: { teamId?: number; invoiceId?: number },
  page: { page: number; pageSize: number },
): Promise<{ rows: CreditNoteRow[]; total: number }> {
  const base = db<CreditNoteRow>('credit_notes');
  if (filter.teamId !== undefined) base.where({ team_id: filter.teamId });
  if (filter.invoiceId !== undefined) base.where({ invoice_id: filter.invoiceId });
  const [rows, counted] = await Promise.all([
    base
      .clone()
      .orderBy('id', 'desc')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize),
    base.clone().count({ count: '*' }).first() as Promise<{ count: number } | undefined>,
  ]);
  return { rows: rows as CreditNoteRow[], total: Number(counted?.count ?? 0) };
}

/** An invoice's credit notes, oldest first (the invoice's own view). */
export async function creditNotesOf(db: Db | Knex.Transaction, invoiceId: number): Promise<CreditNoteRow[]> {
  return (await db<CreditNoteRow>('credit_notes').where({ invoice_id: invoiceId }).orderBy('id')) as CreditNoteRow[];
}

/** One credit note; `teamId` null (operators, workers) finds any team's. Another team's: 404. */
export async function findCreditNote(db: Db | Knex.Transaction, teamId: number | null, creditNoteId: number): Promise<CreditNoteRow> {
  const query = db<CreditNoteRow>('credit_notes').where({ id: creditNoteId });
  if (teamId !== null) query.where({ team_id: teamId });
  const creditNote = await query.first();
  if (!creditNote) throw new NotFound('Credit note not found');
  return creditNote as CreditNoteRow;
}
