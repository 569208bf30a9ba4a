import type { MailMessage } from './mailer.ts';
import { escapeHtml } from './templates.ts';

type Action = { label: string; url: string };
type Template = { subject: string; lines: string[]; details: Array<[string, string]>; actions: Action[]; footer: string };

/** The layout of templates.ts, with a table of the sign-in's details and more than one action. */
function render(to: string, template: Template): MailMessage {
  const text = [
    ...template.lines,
    '',
    ...template.details.map(([label, value]) => `${label}: ${value}`),
    '',
    ...template.actions.map((action) => `${action.label}: ${action.url}`),
    '',
    template.footer,
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">',
    ...template.lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    '<table>',
    ...template.details.map(([label, value]) => `<tr><td style="color:#666;padding-right:1em">${escapeHtml(label)}</td><td>${escapeHtml(value)}</td></tr>`),
    '</table>',
    ...template.actions.map((action) => `<p><a href="${escapeHtml(action.url)}">${escapeHtml(action.label)}</a></p>`),
    `<p style="color:#666;font-size:small">${escapeHtml(template.footer)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to, subject: template.subject, text, html };
}

export type SignInDetails = { at: Date; ip: string | null; country: string | null; userAgent: string | null };

function detailsOf(signIn: SignInDetails): Array<[string, string]> {
  return [
    ['When', `${signIn.at.toISOString().replace('T', ' ').slice(0, 19)} UTC`],
    ['IP address', signIn.ip ?? 'unknown'],
    ['Country (from the IP address)', signIn.country ?? 'unknown'],
    ['Browser or app', signIn.userAgent ?? 'unknown'],
  ];
}

const reasonText: Record<string, string> = {
  new_country: 'it came from a country you have not signed in from in the last 90 days',
  new_network: 'it came from a network you have not used in the last 90 days',
  impossible_travel: 'it is too far from your previous sign-in for anyone to have travelled between them in time',
};

export function loginAlertMail(to: string, alert: SignInDetails & { name: string; reasons: string[]; approveUrl: string; denyUrl: string }): MailMessage {
  return render(to, {
    subject: 'New sign-in to your Berth account',
    lines: [
      `Hello ${alert.name},`,
      `Your Berth account was just signed in to, and the sign-in looks unusual: ${alert.reasons.map((reason) => reasonText[reason] ?? reason).join('; ')}.`,
      'If it was you, approve it and we will remember this place. If it was not you, deny it: that session ends at once and we send you a link to choose a new password. The links work once, for 24 hours.',
    ],
    details: detailsOf(alert),
    actions: [
      { label: 'Yes, it was me', url: alert.approveUrl },
      { label: 'No, it was not me', url: alert.denyUrl },
    ],
    footer: 'Berth sends this message for every sign-in from a new country or network, or from too far away.',
  });
}

export function concurrentLoginMail(to: string, request: SignInDetails & { name: string; url: string }): MailMessage {
  return render(to, {
    subject: 'A sign-in to your Berth account is waiting for your approval',
    lines: [
      `Hello ${request.name},`,
      'Someone with your password is signing in to Berth on another device while you are signed in. It stays on hold until you approve or deny it from a device where you are already signed in; without a decision it expires 10 minutes after it started.',
      'If it is not you, deny it and change your password.',
    ],
    details: detailsOf(request),
    actions: [{ label: 'Review the sign-in', url: request.url }],
    footer: 'Your team asks for approval of every sign-in while another device has a session; a team owner can change this.',
  });
}
