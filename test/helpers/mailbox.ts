import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  attachments: Array<{ filename: string; contentType: string; content: Buffer }>;
};

/** A real SMTP server on loopback (npm smtp-server) that keeps every message it is given. */
export class Mailbox {
  readonly messages: ReceivedMail[] = [];
  private waiters: Array<() => void> = [];
  private server: SMTPServer;
  url = '';

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then((parsed) => {
            const to = (Array.isArray(parsed.to) ? parsed.to : parsed.to ? [parsed.to] : []).flatMap((address) =>
              address.value.map((entry) => entry.address ?? ''),
            );
            const attachments = parsed.attachments.map((attachment) => ({
              filename: attachment.filename ?? '',
              contentType: attachment.contentType,
              content: attachment.content,
            }));
            this.messages.push({
              to,
              from: parsed.from?.text ?? '',
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              attachments,
            });
            for (const wake of this.waiters.splice(0)) wake();
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.url = `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Waits for a message to `to` whose subject matches; fails the test after `timeoutMs`. */
  async waitFor(to: string, subject: RegExp, timeoutMs = 10_000): Promise<ReceivedMail> {
    return (await this.waitForCount(to, subject, 1, timeoutMs))[0]!;
  }

  /** Waits for the `n`-th message (from 1) to `to` with a matching subject. */
  async waitForNth(to: string, subject: RegExp, n: number, timeoutMs = 10_000): Promise<ReceivedMail> {
    return (await this.waitForCount(to, subject, n, timeoutMs))[n - 1]!;
  }

  /** Waits until `count` messages to `to` have a matching subject; all that match, in arrival order. */
  async waitForCount(to: string, subject: RegExp, count: number, timeoutMs = 10_000): Promise<ReceivedMail[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.to(to).filter((mail) => subject.test(mail.subject));
      if (found.length >= count) return found;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `${found.length} of ${count} mails to ${to} matching ${subject} within ${timeoutMs} ms (got: ${this.messages.map((m) => `${m.to}: ${m.subject}`).join(', ') || 'nothing'})`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 250));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** All messages to an address, in arrival order. */
  to(address: string): ReceivedMail[] {
    return this.messages.filter((mail) => mail.to.includes(address));
  }
}

/** The link of a message's action, from its text part (the HTML carries the same one). */
export function linkIn(mail: ReceivedMail): URL {
  const match = mail.text.match(/https?:\/\/\S+/);
  if (!match) throw new Error(`no link in mail "${mail.subject}"`);
  return new URL(match[0]);
}

export function tokenIn(mail: ReceivedMail): string {
  const token = linkIn(mail).searchParams.get('token');
  if (!token) throw new Error(`no token in the link of "${mail.subject}"`);
  return token;
}
