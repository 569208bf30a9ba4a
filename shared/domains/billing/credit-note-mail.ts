import type { Db } from '../../db/knex.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { creditNoteMail } from '../../mail/templates.ts';
import { invoiceRecipients } from './billing-recipients.ts';
import { creditNoteDocument } from './credit-note-document.ts';
import { formatMoney } from './money.ts';

/** The `mail.credit-note` job: an issued credit note, its PDF attached, to whom its invoice went (invoiceRecipients). */
export async function mailCreditNote(deps: { db: Db; mailer: Mailer; publicUrl: string }, creditNoteId: number, seller: string): Promise<{ sent: number }> {
  const { creditNote, invoice, teamName, refund, pdf } = await creditNoteDocument(deps.db, null, creditNoteId, seller);
  const recipients = await invoiceRecipients(deps.db, creditNote.team_id);
  const message = {
    teamName,
    number: creditNote.number,
    invoiceNumber: invoice.number ?? '',
    amount: formatMoney(creditNote.amount_minor, creditNote.currency),
    refund,
    link: new URL('/billing/credit-notes', deps.publicUrl).toString(),
    pdf,
  };
  for (const email of recipients) await deps.mailer.send(creditNoteMail(email, message));
  return { sent: recipients.length };
}
