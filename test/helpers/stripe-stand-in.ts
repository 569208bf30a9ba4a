import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A LOCAL STAND-IN FOR STRIPE, NOT STRIPE. It answers only the two endpoints Berth's Stripe provider
 * calls (`POST /v1/customers`, `POST /v1/payment_intents`), with the fields of Stripe's objects that
 * Berth reads, and honours `Idempotency-Key` as Stripe does (the same key and parameters answer the
 * first object again; the same key with other parameters is a 400 `idempotency_error`). It records
 * what it received so tests can assert it. Stripe's real behaviour (payment methods, confirmation,
 * events) is not imitated: tests send the webhook events themselves, signed with the `stripe`
 * package's `webhooks.generateTestHeaderString`. The `stripe` client reaches it through
 * STRIPE_API_BASE (its host, port and protocol options).
 */
export type StandInRequest = { method: string; path: string; params: Record<string, string>; idempotencyKey: string | undefined; authorized: boolean };

export type StripeStandIn = {
  url: string;
  /** Every request, in order (replays included). */
  received: StandInRequest[];
  /** The objects made, by id (a replayed key makes none). */
  objects: Map<string, Record<string, unknown>>;
  /** The next `count` requests are answered 500 api_error, as Stripe does when it fails. */
  failNext(count: number): void;
  stop(): Promise<void>;
};

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** Stripe's form encoding flattened as sent (`metadata[invoice_id]` stays one key). */
function paramsOf(body: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(body));
}

function metadataOf(params: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(params).filter(([key]) => key.startsWith('metadata[')).map(([key, value]) => [key.slice(9, -1), value]));
}

const makers: Record<string, (params: Record<string, string>) => Record<string, unknown>> = {
  '/v1/customers': (params) => ({ id: id('cus'), object: 'customer', name: params.name ?? null, metadata: metadataOf(params), created: Math.floor(Date.now() / 1000), livemode: false }),
  '/v1/payment_intents': (params) => {
    const intent = id('pi');
    return {
      id: intent, object: 'payment_intent', amount: Number(params.amount), currency: params.currency, customer: params.customer ?? null,
      description: params.description ?? null, metadata: metadataOf(params), status: 'requires_payment_method',
      client_secret: `${intent}_secret_${randomBytes(12).toString('hex')}`, created: Math.floor(Date.now() / 1000), livemode: false, last_payment_error: null,
    };
  },
};

export async function startStripeStandIn(secretKey: string): Promise<StripeStandIn> {
  const received: StandInRequest[] = [];
  const objects = new Map<string, Record<string, unknown>>();
  const byKey = new Map<string, { path: string; body: string; answer: Record<string, unknown> }>();
  let failing = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = (req.url ?? '').split('?')[0]!;
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
      const authorized = req.headers.authorization === `Bearer ${secretKey}`;
      received.push({ method: req.method ?? '', path, params: paramsOf(body), idempotencyKey, authorized });
      const send = (status: number, answer: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': id('req') });
        res.end(JSON.stringify(answer));
      };
      if (failing > 0) {
        failing -= 1;
        return send(500, { error: { type: 'api_error', message: 'An unknown error occurred (the stand-in failing on purpose)' } });
      }
      if (!authorized) return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      const make = req.method === 'POST' ? makers[path] : undefined;
      if (!make) return send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path}); the stand-in answers only what Berth calls` } });
      if (idempotencyKey !== undefined) {
        const earlier = byKey.get(idempotencyKey);
        if (earlier && (earlier.path !== path || earlier.body !== body)) {
          return send(400, { error: { type: 'idempotency_error', message: 'Keys for idempotent requests can only be used with the same parameters they were first used with.' } });
        }
        if (earlier) return send(200, earlier.answer);
      }
      const answer = make(paramsOf(body));
      objects.set(answer.id as string, answer);
      if (idempotencyKey !== undefined) byKey.set(idempotencyKey, { path, body, answer });
      send(200, answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    objects,
    failNext: (count) => {
      failing = count;
    },
    stop: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
