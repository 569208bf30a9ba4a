import type { MailMessage } from './mailer.ts';

type Template = { subject: string; lines: string[]; action: { label: string; url: string }; footer: string };

/** One layout for every message: a few lines, one action link, a footer; text and HTML alike. */
export function render(to: string, template: Template): MailMessage {
  const text = [...template.lines, '', `${template.action.label}: ${template.action.url}`, '', template.footer].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">',
    ...template.lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    `<p><a href="${escapeHtml(template.action.url)}">${escapeHtml(template.action.label)}</a></p>`,
    `<p style="color:#666;font-size:small">${escapeHtml(template.footer)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to, subject: template.subject, text, html };
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}

export function emailVerificationMail(to: string, name: string, url: string): MailMessage {
  return render(to, {
    subject: 'Verify your e-mail address for Berth',
    lines: [`Hello ${name},`, 'Confirm that this is your e-mail address to finish setting up your Berth account. The link works once, for 24 hours.'],
    action: { label: 'Verify e-mail address', url },
    footer: 'If you did not create a Berth account, ignore this message.',
  });
}

export function passwordResetMail(to: string, name: string, url: string): MailMessage {
  return render(to, {
    subject: 'Reset your Berth password',
    lines: [
      `Hello ${name},`,
      'Someone asked to reset the password of your Berth account. The link works once, for 30 minutes; using it signs you out everywhere.',
    ],
    action: { label: 'Choose a new password', url },
    footer: 'If you did not ask for this, ignore this message: your password stays as it is.',
  });
}

export function inviteMail(to: string, teamName: string, inviterName: string | null, url: string): MailMessage {
  return render(to, {
    subject: `You are invited to join ${teamName} on Berth`,
    lines: [`${inviterName ?? 'A team owner'} invited you to join the team "${teamName}" on Berth. The invitation is valid for 7 days.`],
    action: { label: 'Accept the invitation', url },
    footer: 'If you do not know this team, ignore this message.',
  });
}

export function webhookDisabledMail(to: string, teamName: string, url: string, reason: 'gone' | 'failing', endpointLink: string): MailMessage {
  const why = reason === 'gone' ? 'It answered 410 Gone, which asks senders to stop.' : 'Every delivery to it has failed for days.';
  return render(to, {
    subject: `A webhook endpoint of ${teamName} was disabled`,
    lines: [
      `Berth stopped sending events of the team "${teamName}" to ${url}.`,
      why,
      'Events that happen while it is disabled are not sent to it. Once it works again, enable it and redeliver what it missed from its delivery log.',
    ],
    action: { label: 'See the endpoint', url: endpointLink },
    footer: 'You receive this because you own the team on Berth.',
  });
}

/** A finalized invoice, its PDF attached; `instructions` tells how to pay an open one. */
export function invoiceMail(
  to: string,
  invoice: { teamName: string; number: string; total: string; due: string; instructions: string | null; link: string; pdf: Buffer },
): MailMessage {
  const message = render(to, {
    subject: `Invoice ${invoice.number} from Berth: ${invoice.total}`,
    lines: [
      `Invoice ${invoice.number} for the team "${invoice.teamName}" is attached: ${invoice.total}, due ${invoice.due}.`,
      ...(invoice.instructions ? [invoice.instructions] : []),
    ],
    action: { label: 'See your invoices', url: invoice.link },
    footer: 'You receive this because you own the team, or manage its billing, on Berth.',
  });
  return { ...message, attachments: [{ filename: `${invoice.number}.pdf`, content: invoice.pdf, contentType: 'application/pdf' }] };
}

export function creditNoteMail(
  to: string,
  note: { teamName: string; number: string; invoiceNumber: string; amount: string; refund: string; link: string; pdf: Buffer },
): MailMessage {
  const message = render(to, {
    subject: `Credit note ${note.number} from Berth: ${note.amount}`,
    lines: [`Credit note ${note.number} for the team "${note.teamName}" is attached: ${note.amount} credited on invoice ${note.invoiceNumber}.`, note.refund],
    action: { label: 'See your credit notes', url: note.link },
    footer: 'You receive this because you own the team, or manage its billing, on Berth.',
  });
  return { ...message, attachments: [{ filename: `${note.number}.pdf`, content: note.pdf, contentType: 'application/pdf' }] };
}
