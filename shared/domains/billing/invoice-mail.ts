import type { Db } from '../../db/knex.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { invoiceMail } from '../../mail/templates.ts';
import { invoiceRecipients } from './billing-recipients.ts';
import { invoiceDocument } from './invoice-document.ts';
import { formatMoney } from './money.ts';

/**
 * The `mail.invoice` job: a finalized invoice, its PDF attached, to invoiceRecipients (the profile's
 * invoice email, else the owners and billing members). A void invoice is not sent (it was withdrawn
 * before the job ran); one paid meanwhile is sent as paid (a receipt).
 */
export async function mailInvoice(deps: { db: Db; mailer: Mailer; publicUrl: string }, invoiceId: number, seller: string): Promise<{ sent: number }> {
  const status = (await deps.db('invoices').where({ id: invoiceId }).first('status')) as { status: string } | undefined;
  if (!status || (status.status !== 'open' && status.status !== 'paid')) return { sent: 0 };
  const { invoice, teamName, instructions, pdf } = await invoiceDocument(deps.db, null, invoiceId, seller);
  const recipients = await invoiceRecipients(deps.db, invoice.team_id);
  const message = {
    teamName,
    number: invoice.number!,
    total: formatMoney(invoice.total_minor, invoice.currency),
    due: invoice.due_at!.toISOString().slice(0, 10),
    instructions,
    link: new URL(`/billing/invoices/${invoice.id}`, deps.publicUrl).toString(),
    pdf,
  };
  for (const email of recipients) await deps.mailer.send(invoiceMail(email, message));
  return { sent: recipients.length };
}
