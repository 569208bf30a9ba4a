import type { Db } from '../../db/knex.ts';
import { NotFound } from '../../errors.ts';
import { customerOf, findBillingProfile, type BillingCustomer } from './billing-profiles.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';
import { findInvoice, type InvoiceWithLines } from './invoices.ts';
import { providerNamed } from './providers/providers.ts';

/**
 * Who an invoice is billed to: a finalized one, the details it was finalized with (a later profile
 * change never rewrites it; null if the team had no profile then); a draft, the profile as it is now.
 */
export async function billToOf(db: Db, invoice: InvoiceWithLines): Promise<BillingCustomer | null> {
  return invoice.status === 'draft' ? customerOf(await findBillingProfile(db, invoice.team_id)) : invoice.customer;
}

/**
 * An invoice's PDF with the names on it: the seller (BILLING_SELLER_NAME), the customer (its
 * bill-to block, else the team's name), and how to pay it while it is open (the provider's
 * instructions). `teamId` null: any team's (the mail worker).
 */
export async function invoiceDocument(db: Db, teamId: number | null, invoiceId: number, seller: string): Promise<{ invoice: InvoiceWithLines; teamName: string; instructions: string | null; pdf: Buffer }> {
  const invoice = await findInvoice(db, teamId, invoiceId);
  const team = (await db('teams').where({ id: invoice.team_id }).first('name')) as { name: string } | undefined;
  if (!team) throw new NotFound('Invoice not found');
  const instructions = invoice.status === 'open' ? providerNamed(invoice.provider).paymentInstructions(invoice) : null;
  const pdf = await renderInvoicePdf(invoice, { seller, teamName: team.name, billTo: await billToOf(db, invoice), paymentInstructions: instructions });
  return { invoice, teamName: team.name, instructions, pdf };
}
