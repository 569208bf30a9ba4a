import { billingPdf, BODY_FONT, BOLD_FONT, amountRow, PDF_LAYOUT } from './billing-pdf.ts';
import { writeBillTo } from './invoice-pdf.ts';
import { formatMoney } from './money.ts';
import type { CreditNoteRow, InvoiceRow } from './rows.ts';

export type CreditNoteParties = { seller: string; teamName: string; refund: string };

const day = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : '');

/**
 * A credit note as a PDF (the fonts of billing-pdf.ts, like the invoice's): credited to the customer
 * the invoice was made out to (its `customer` snapshot, else the team's name), the invoice it
 * credits, the amount with its tax part, the invoice's tax note (a reverse charge stays one), the
 * reason and how the money goes back. Rendered from the rows every time it is asked for.
 */
export function renderCreditNotePdf(creditNote: CreditNoteRow, invoice: InvoiceRow, parties: CreditNoteParties): Promise<Buffer> {
  const { doc, done } = billingPdf({ Title: `Credit note ${creditNote.number}`, Author: parties.seller });
  const money = (amount: number) => formatMoney(amount, creditNote.currency);
  const { left, width } = PDF_LAYOUT;
  const row = (label: string, amount: string, bold = false) => amountRow(doc, label, amount, bold);

  doc.font(BOLD_FONT).fontSize(20).text(`Credit note ${creditNote.number}`, left, 50);
  doc.font(BODY_FONT).fontSize(10).moveDown(0.5);
  doc.text(`From: ${parties.seller}`);
  writeBillTo(doc, 'Credited to: ', invoice.customer, parties.teamName);
  doc.text(`Issued: ${day(creditNote.created_at)}`);
  doc.text(`Credits invoice ${invoice.number ?? ''} of ${day(invoice.finalized_at)} (total ${money(invoice.total_minor)})`);
  doc.moveDown();
  row('Description', 'Amount', true);
  doc
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .stroke();
  doc.moveDown(0.3);
  row(`Reason: ${creditNote.reason}`, money(creditNote.amount_minor - creditNote.tax_minor));
  row('Tax credited', money(creditNote.tax_minor));
  doc.moveDown(0.3);
  doc
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .stroke();
  doc.moveDown(0.3);
  row('Total credited', money(creditNote.amount_minor), true);
  if (invoice.tax_note) doc.moveDown().font(BODY_FONT).text(invoice.tax_note, left, doc.y, { width });
  doc.moveDown(2).font(BODY_FONT).text(parties.refund, left, doc.y, { width });
  doc.end();
  return done;
}
