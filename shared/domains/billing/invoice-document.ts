import type { Db } from '../../db/knex.ts';
import { NotFound } from '../../errors.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';
import { findInvoice, type InvoiceWithLines } from './invoices.ts';
import { providerNamed } from './providers/providers.ts';

/**
 * An invoice's PDF with the names on it: the seller (BILLING_SELLER_NAME), the customer (the bill-to
 * block it was taxed with, which a later profile change never rewrites; else the team's name), and
 * how to pay it while it is open (the provider's instructions). `teamId` null: any team's (the mail
 * worker).
 */
export async function invoiceDocument(
  db: Db,
  teamId: number | null,
  invoiceId: number,
  seller: string,
): Promise<{ invoice: InvoiceWithLines; teamName: string; instructions: string | null; pdf: Buffer }> {
  const invoice = await findInvoice(db, teamId, invoiceId);
  const team = (await db('teams').where({ id: invoice.team_id }).first('name')) as { name: string } | undefined;
  if (!team) throw new NotFound('Invoice not found');
  const instructions = invoice.status === 'open' ? providerNamed(invoice.provider).paymentInstructions(invoice) : null;
  const pdf = await renderInvoicePdf(invoice, { seller, teamName: team.name, billTo: invoice.customer, paymentInstructions: instructions });
  return { invoice, teamName: team.name, instructions, pdf };
}
