import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceivedWebhook = { at: number; path: string; headers: http.IncomingHttpHeaders; body: string };
/** How the receiver answers one request: a status (and body), after an optional delay. */
export type Answer = { status: number; body?: string; delayMs?: number };

/**
 * A webhook receiver on loopback: it records every request as received (headers, raw body) and
 * answers from each path's script, one answer per request, then `fallback` once the script runs out.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private scripts = new Map<string, Answer[]>();
  fallback: Answer = { status: 200, body: 'ok' };
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      this.received.push({ at: Date.now(), path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = this.scripts.get(req.url ?? '/')?.shift() ?? this.fallback;
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, { 'content-type': 'text/plain', 'x-receiver': 'test' }).end(answer.body ?? '');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  /** The URL of a path on this receiver; `host` may be a name such as `localhost`. */
  url(path = '/hook', host = '127.0.0.1'): string {
    return `http://${host}:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** The answers to the next requests to `path`, in order. */
  answerNext(path: string, ...answers: Answer[]): void {
    this.scripts.set(path, [...(this.scripts.get(path) ?? []), ...answers]);
  }

  /** The requests to `path`, once at least `count` have come (or throws after `timeoutMs`). */
  async waitFor(path: string, count: number, timeoutMs = 10_000): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const matching = this.received.filter((request) => request.path === path);
      if (matching.length >= count) return matching;
      if (Date.now() > deadline)
        throw new Error(
          `${path} received ${matching.length} of ${count} webhooks within ${timeoutMs} ms: ${matching.map((request) => request.body).join('\n')}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
