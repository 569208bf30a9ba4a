import type { MailMessage } from './mailer.ts';
import { escapeHtml } from './templates.ts';

/**
 * The new-device code. No link: the code is typed into the sign-in page that asked for it, on the
 * device being approved. The same look as the other messages (templates.ts), with the code set apart.
 */
export function deviceCodeMail(to: string, name: string, code: string, device: { label: string; ip: string | null }): MailMessage {
  const lines = [
    `Hello ${name},`,
    `A sign-in to your Berth account from a new device (${device.label}${device.ip ? `, IP address ${device.ip}` : ''}) needs your approval.`,
    'Enter this code on that device. It is valid for 10 minutes and allows 5 tries.',
  ];
  // The code stays out of the subject: the mailer logs subjects.
  const footer = 'If this was not you, do not share the code with anyone, and change your password: someone knows it.';
  const text = [...lines, '', `Code: ${code}`, '', footer].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">',
    ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    `<p style="font-size:x-large;letter-spacing:0.2em"><strong>${escapeHtml(code)}</strong></p>`,
    `<p style="color:#666;font-size:small">${escapeHtml(footer)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to, subject: 'Approve a new device: your Berth sign-in code', text, html };
}
