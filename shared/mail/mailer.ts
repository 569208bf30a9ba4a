import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { Logger } from '../logger.ts';

export type MailAttachment = { filename: string; content: Buffer; contentType: string };

export type MailMessage = { to: string; subject: string; text: string; html: string; attachments?: MailAttachment[] };

export type Mailer = { send(message: MailMessage): Promise<void>; close(): void };

/**
 * SMTP when SMTP_URL is set; otherwise (never in production) each message is written as an .eml file
 * (and a plain .txt of its text part) to <data dir>/outbox, and the log line names the file, not the message's links or tokens.
 */
export function createMailer(options: { smtpUrl: string | undefined; from: string; dataDir: string; logger: Logger }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(message) {
        const info = await transport.sendMail({ from: options.from, ...message });
        options.logger.info({ to: message.to, subject: message.subject, messageId: info.messageId }, 'mail sent');
      },
      close: () => transport.close(),
    };
  }
  const outbox = path.join(options.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: options.from, ...message });
      await fs.mkdir(outbox, { recursive: true, mode: 0o700 });
      const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`);
      await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
      // The .eml is quoted-printable (links wrap at 76 columns); the .txt beside it reads as sent.
      const readable = `To: ${message.to}\nSubject: ${message.subject}\n\n${message.text}\n`;
      await fs.writeFile(file.replace(/\.eml$/, '.txt'), readable, { mode: 0o600 });
      options.logger.info({ to: message.to, subject: message.subject, file }, 'mail written to the outbox (SMTP_URL is not set)');
    },
    close: () => transport.close(),
  };
}
