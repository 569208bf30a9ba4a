import PDFDocument from 'pdfkit';
import { formatMoney } from './money.ts';
import type { CreditNoteRow, InvoiceRow } from './rows.ts';

export type CreditNoteParties = { seller: string; teamName: string; refund: string };

const day = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : '');

/**
 * A credit note as a PDF (pdfkit's built-in Helvetica, like the invoice's): the invoice it credits,
 * the amount with its tax part, the reason and how the money goes back. Rendered from the rows every
 * time it is asked for.
 */
export function renderCreditNotePdf(creditNote: CreditNoteRow, invoice: InvoiceRow, parties: CreditNoteParties): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `Credit note ${creditNote.number}`, Author: parties.seller } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const money = (amount: number) => formatMoney(amount, creditNote.currency);
  const left = 50;
  const amountColumn = 420;
  const width = 495;
  const row = (label: string, amount: string, bold = false) => {
    const y = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica');
    doc.text(label, left, y, { width: amountColumn - left - 10 });
    const after = doc.y;
    doc.text(amount, amountColumn, y, { width: left + width - amountColumn, align: 'right' });
    doc.y = Math.max(after, doc.y);
  };

  doc.font('Helvetica-Bold').fontSize(20).text(`Credit note ${creditNote.number}`, left, 50);
  doc.font('Helvetica').fontSize(10).moveDown(0.5);
  doc.text(`From: ${parties.seller}`);
  doc.text(`Credited to: ${parties.teamName}`);
  doc.text(`Issued: ${day(creditNote.created_at)}`);
  doc.text(`Credits invoice ${invoice.number ?? ''} of ${day(invoice.finalized_at)} (total ${money(invoice.total_minor)})`);
  doc.moveDown();
  row('Description', 'Amount', true);
  doc.moveTo(left, doc.y).lineTo(left + width, doc.y).stroke();
  doc.moveDown(0.3);
  row(`Reason: ${creditNote.reason}`, money(creditNote.amount_minor - creditNote.tax_minor));
  row('Tax credited', money(creditNote.tax_minor));
  doc.moveDown(0.3);
  doc.moveTo(left, doc.y).lineTo(left + width, doc.y).stroke();
  doc.moveDown(0.3);
  row('Total credited', money(creditNote.amount_minor), true);
  doc.moveDown(2).font('Helvetica').text(parties.refund, left, doc.y, { width });
  doc.end();
  return done;
}
