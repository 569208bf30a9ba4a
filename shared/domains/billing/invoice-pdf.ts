import { billingPdf, BODY_FONT, BOLD_FONT, amountRow, PDF_LAYOUT } from './billing-pdf.ts';
import type { BillingCustomer } from './billing-profiles.ts';
import { countryName } from './countries.ts';
import type { InvoiceWithLines } from './invoices.ts';
import { formatMoney } from './money.ts';

/** `billTo` null: the team has no billing profile (or had none when the invoice was finalized); its name stands in. */
export type InvoiceParties = { seller: string; teamName: string; billTo: BillingCustomer | null; paymentInstructions: string | null };

/** The bill-to block's lines: name, address, country, VAT id. */
export function billToLines(customer: BillingCustomer): string[] {
  return [
    customer.legal_name,
    customer.address_line1,
    ...(customer.address_line2 ? [customer.address_line2] : []),
    `${customer.postal_code} ${customer.city}`,
    ...(customer.region ? [customer.region] : []),
    countryName(customer.country),
    ...(customer.tax_id ? [`VAT ID: ${customer.tax_id}`] : []),
  ];
}

/** The bill-to block after `label`, its lines under the name; without a customer, the team's name. */
export function writeBillTo(doc: PDFKit.PDFDocument, label: string, customer: BillingCustomer | null, teamName: string): void {
  if (!customer) {
    doc.text(`${label}${teamName}`);
    return;
  }
  const left = doc.x;
  const [name, ...rest] = billToLines(customer);
  doc.text(`${label}${name}`);
  for (const line of rest) doc.text(line, left + doc.widthOfString(label)); // under the name
  doc.x = left;
}

const day = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : '');

/**
 * The invoice as a PDF (pdfkit, DejaVu Sans embedded: see billing-pdf.ts), rendered from the
 * finalized row every time it is asked for, so it always shows what the invoice says. A4, one page
 * for any plan invoice; pdfkit adds pages if the lines run over.
 */
export function renderInvoicePdf(invoice: InvoiceWithLines, parties: InvoiceParties): Promise<Buffer> {
  const { doc, done } = billingPdf({ Title: `Invoice ${invoice.number ?? ''}`, Author: parties.seller });
  const money = (amount: number) => formatMoney(amount, invoice.currency);
  const { left, width } = PDF_LAYOUT;

  doc
    .font(BOLD_FONT)
    .fontSize(20)
    .text(`Invoice ${invoice.number ?? '(draft)'}`, left, 50);
  doc.font(BODY_FONT).fontSize(10).moveDown(0.5);
  doc.text(`From: ${parties.seller}`);
  writeBillTo(doc, 'Billed to: ', parties.billTo, parties.teamName);
  doc.text(`Issued: ${day(invoice.finalized_at)}    Due: ${day(invoice.due_at)}`);
  if (invoice.period_start && invoice.period_end) doc.text(`Period: ${day(invoice.period_start)} to ${day(invoice.period_end)}`);
  doc.text(`Status: ${invoice.status}${invoice.paid_at ? ` (paid ${day(invoice.paid_at)})` : ''}`);
  doc.moveDown();

  const row = (label: string, amount: string, bold = false) => amountRow(doc, label, amount, bold);
  row('Description', 'Amount', true);
  doc
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .stroke();
  doc.moveDown(0.3);
  for (const line of invoice.lines.filter((entry) => entry.kind === 'item')) {
    row(line.quantity === 1 ? line.description : `${line.description} (${line.quantity} × ${money(line.unit_amount_minor)})`, money(line.amount_minor));
  }
  doc.moveDown(0.3);
  doc
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .stroke();
  doc.moveDown(0.3);
  row('Subtotal', money(invoice.subtotal_minor));
  for (const line of invoice.lines.filter((entry) => entry.kind === 'tax'))
    row(`${line.description} on ${money(line.taxable_minor ?? 0)}`, money(line.amount_minor));
  row('Total', money(invoice.total_minor), true);
  if (invoice.tax_note) doc.moveDown().font(BODY_FONT).text(invoice.tax_note, left, doc.y, { width });

  if (parties.paymentInstructions && invoice.status === 'open') {
    doc.moveDown(2).font(BODY_FONT).text(parties.paymentInstructions, left, doc.y, { width });
  }
  doc.end();
  return done;
}
