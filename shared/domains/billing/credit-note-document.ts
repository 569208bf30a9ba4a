import type { Db } from '../../db/knex.ts';
import { NotFound } from '../../errors.ts';
import { renderCreditNotePdf } from './credit-note-pdf.ts';
import { findCreditNote } from './credit-notes.ts';
import { formatMoney } from './money.ts';
import type { CreditNoteRow, InvoiceRow } from './rows.ts';

/**
 * A credit note's PDF with the names on it (the seller, BILLING_SELLER_NAME; the team) and how its
 * money goes back. `teamId` null: any team's (the mail worker).
 */
export async function creditNoteDocument(
  db: Db,
  teamId: number | null,
  creditNoteId: number,
  seller: string,
): Promise<{ creditNote: CreditNoteRow; invoice: InvoiceRow; teamName: string; refund: string; pdf: Buffer }> {
  const creditNote = await findCreditNote(db, teamId, creditNoteId);
  const invoice = (await db<InvoiceRow>('invoices').where({ id: creditNote.invoice_id }).first()) as InvoiceRow;
  const team = (await db('teams').where({ id: creditNote.team_id }).first('name')) as { name: string } | undefined;
  if (!team) throw new NotFound('Credit note not found');
  const refund = refundSentence(creditNote);
  const pdf = await renderCreditNotePdf(creditNote, invoice, { seller, teamName: team.name, refund });
  return { creditNote, invoice, teamName: team.name, refund, pdf };
}

/** What the customer is told about the money, as the credit note stands. */
export function refundSentence(creditNote: CreditNoteRow): string {
  const amount = formatMoney(creditNote.amount_minor, creditNote.currency);
  switch (creditNote.refund_status) {
    case 'refunded':
      return `${amount} was refunded to the card that paid the invoice.`;
    case 'pending':
    case 'failed':
      // A failed refund is retried by an operator; the customer is owed it either way.
      return `${amount} is being refunded to the card that paid the invoice.`;
    case 'not_applicable':
      return `${amount} is credited; it is paid back by bank transfer or settled with you directly.`;
  }
}
