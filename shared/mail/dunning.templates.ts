import type { MailMessage } from './mailer.ts';
import { render } from './templates.ts';

/** What every dunning mail names: the invoice, its amount, and the day the plan's limits go. Dates are YYYY-MM-DD (UTC). */
export type DunningNotice = { teamName: string; number: string; amount: string; withdrawal: string; link: string };

const FOOTER = 'You receive this because you own the team, or manage its billing, on Berth.';
const withdrawalLine = (notice: DunningNotice) =>
  `If it is still unpaid on ${notice.withdrawal}, your plan's limits are withdrawn that day: your sites keep running, but no new ones can be made.`;

/** A retried card charge failed (Stripe): why, and when it is tried again. */
export function paymentFailedMail(to: string, notice: DunningNotice & { reason: string; nextRetry: string | null }): MailMessage {
  return render(to, {
    subject: `Payment failed for invoice ${notice.number}: ${notice.amount}`,
    lines: [
      // Stripe's messages end with a full stop ("Your card was declined."); ours do not.
      `We could not charge ${notice.amount} for invoice ${notice.number} of the team "${notice.teamName}": ${notice.reason.replace(/[.!]+$/, '')}.`,
      notice.nextRetry
        ? `We will retry on ${notice.nextRetry}. To avoid another failure, save a working card or pay the invoice in the panel.`
        : 'We will not retry the charge: pay the invoice in the panel.',
      withdrawalLine(notice),
    ],
    action: { label: 'Pay the invoice', url: notice.link },
    footer: FOOTER,
  });
}

/** An overdue invoice paid by bank transfer (manual): a reminder with how to pay it. */
export function invoiceOverdueMail(to: string, notice: DunningNotice & { due: string; instructions: string | null }): MailMessage {
  return render(to, {
    subject: `Invoice ${notice.number} is overdue: ${notice.amount}`,
    lines: [
      `Invoice ${notice.number} of the team "${notice.teamName}" for ${notice.amount} was due on ${notice.due} and is still open.`,
      ...(notice.instructions ? [notice.instructions] : []),
      withdrawalLine(notice),
    ],
    action: { label: 'See the invoice', url: notice.link },
    footer: FOOTER,
  });
}

/** The subscription became unpaid: the limits are gone until the open invoices are paid. */
export function planWithdrawnMail(
  to: string,
  notice: { teamName: string; invoices: Array<{ number: string; amount: string }>; instructions: string | null; link: string },
): MailMessage {
  const owed = notice.invoices.map((invoice) => `${invoice.number} (${invoice.amount})`).join(', ');
  return render(to, {
    subject: `Your Berth plan's limits were withdrawn: invoice ${notice.invoices[0]!.number} is unpaid`,
    lines: [
      `The team "${notice.teamName}" has not paid ${notice.invoices.length === 1 ? 'invoice' : 'invoices'} ${owed}, so its plan's limits were withdrawn today.`,
      'Your sites keep running, but no new ones can be made. Paying restores the plan at once.',
      ...(notice.instructions ? [notice.instructions] : []),
    ],
    action: { label: 'See your invoices', url: notice.link },
    footer: FOOTER,
  });
}
