import type { MailMessage } from './mailer.ts';

type Template = { subject: string; lines: string[]; action: { label: string; url: string }; footer: string };

/** One layout for every message: a few lines, one action link, a footer; text and HTML alike. */
function render(to: string, template: Template): MailMessage {
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
    lines: [`Hello ${name},`, 'Someone asked to reset the password of your Berth account. The link works once, for 30 minutes; using it signs you out everywhere.'],
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
