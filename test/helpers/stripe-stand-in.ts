import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A LOCAL STAND-IN FOR STRIPE, NOT STRIPE. It answers only the endpoints Berth's Stripe provider
 * calls — `POST /v1/customers`, `POST /v1/payment_intents`, for dunning `GET /v1/customers/:id`
 * and `POST /v1/payment_intents/:id/confirm`, for credit notes `POST /v1/refunds`,
 * `GET /v1/refunds?payment_intent=…` and `GET /v1/refunds/:id`, and for voided
 * invoices `POST /v1/payment_intents/:id/cancel` and `GET /v1/payment_intents/:id` — with the fields of Stripe's objects that Berth reads,
 * and honours `Idempotency-Key` as Stripe does (the same key and parameters answer the first answer
 * again, a decline included; the same key with other parameters is a 400 `idempotency_error`). It
 * records what it received so tests can assert it. Stripe's real behaviour is not imitated: a saved
 * card is whatever a test sets with `saveCard`, and a confirmation succeeds or declines as the test
 * switched it with `chargesWill` (the decline shaped as Stripe's 402 `card_error`); tests send the
 * webhook events themselves, signed with the `stripe` package's `webhooks.generateTestHeaderString`.
 * The `stripe` client reaches it through STRIPE_API_BASE (its host, port and protocol options).
 * Refunds (stand-in rules, not Stripe's full ones): the PaymentIntent must exist and have succeeded
 * (a test marks it so with `payIntent`, as it delivers `payment_intent.succeeded` itself), the amount
 * may not pass what is left unrefunded (400 `amount_too_large`), and the refund ends as the test
 * switched it with `refundsWill`: `succeeded`, `pending`, or refused as Stripe refuses (400
 * invalid_request_error with the given message). `loseRefundAnswers` makes the next refunds and
 * answers 500 instead (a `create` that timed out after Stripe acted), keeping no Idempotency-Key
 * for them (as once Stripe's 24 hours are over); `settleRefund` changes a refund's status as Stripe
 * does later. The list answers the PaymentIntent's refunds newest first, in one page (`has_more`
 * false; stand-in rule, not Stripe's paging). GET requests record their query as `params`.
 * `observeRequests` runs a test's check on each request as it arrives, before it is answered (what
 * the database holds at that moment, seen from another connection).
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
  /** Gives a customer a saved default card (`invoice_settings.default_payment_method`), or takes it away (null). */
  saveCard(customerId: string, paymentMethod: string | null): void;
  /** Marks a PaymentIntent paid (`succeeded`), as Stripe has it once the customer paid. */
  payIntent(intentId: string): void;
  /** How the next refunds end: `succeeded` (default), `pending`, or refused with Stripe's message. */
  refundsWill(behaviour: RefundBehaviour): void;
  /** The next `count` refunds are made, but answered 500 api_error (the answer lost), their key not kept. */
  loseRefundAnswers(count: number): void;
  /** Sets a refund's status (and failure reason) as Stripe settles it later. */
  settleRefund(refundId: string, status: 'succeeded' | 'failed' | 'canceled', failureReason?: string): void;
  /** How the next confirmations end: paid, or declined with Stripe's message (default: paid). */
  chargesWill(behaviour: ChargeBehaviour): void;
  /** Awaits `observer` on every request when it arrives, before answering it (null: none). */
  observeRequests(observer: ((request: StandInRequest) => Promise<void>) | null): void;
  stop(): Promise<void>;
};

export type ChargeBehaviour = { succeed: true } | { decline: string };
export type RefundBehaviour = { status: 'succeeded' | 'pending' } | { refuse: string };

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** Stripe's form encoding flattened as sent (`metadata[invoice_id]` stays one key). */
function paramsOf(body: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(body));
}

function metadataOf(params: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params)
      .filter(([key]) => key.startsWith('metadata['))
      .map(([key, value]) => [key.slice(9, -1), value]),
  );
}

const makers: Record<string, (params: Record<string, string>) => Record<string, unknown>> = {
  '/v1/customers': (params) => ({
    id: id('cus'),
    object: 'customer',
    name: params.name ?? null,
    metadata: metadataOf(params),
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    invoice_settings: { default_payment_method: null },
  }),
  '/v1/payment_intents': (params) => {
    const intent = id('pi');
    return {
      id: intent,
      object: 'payment_intent',
      amount: Number(params.amount),
      currency: params.currency,
      customer: params.customer ?? null,
      description: params.description ?? null,
      metadata: metadataOf(params),
      status: 'requires_payment_method',
      client_secret: `${intent}_secret_${randomBytes(12).toString('hex')}`,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      last_payment_error: null,
    };
  },
};

function missing(kind: string, objectId: string): Record<string, unknown> {
  return { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${objectId}'` } };
}

/**
 * Stripe's `confirm`, as far as Berth relies on it: a PaymentIntent that succeeded already is refused
 * (400 payment_intent_unexpected_state); otherwise the switched behaviour pays it, or declines it the
 * way Stripe does (402 card_error naming the PaymentIntent, now `requires_payment_method`).
 */
function confirmIntent(
  intent: Record<string, unknown> | undefined,
  intentId: string,
  params: Record<string, string>,
  behaviour: ChargeBehaviour,
): [number, Record<string, unknown>] {
  if (intent?.object !== 'payment_intent') return [404, missing('payment_intent', intentId)];
  if (intent.status === 'succeeded') {
    return [
      400,
      {
        error: {
          type: 'invalid_request_error',
          code: 'payment_intent_unexpected_state',
          message: 'You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.',
          payment_intent: intent,
        },
      },
    ];
  }
  if (!params.payment_method)
    return [
      400,
      {
        error: {
          type: 'invalid_request_error',
          code: 'parameter_missing',
          message: 'You must provide a payment method to confirm this PaymentIntent.',
          param: 'payment_method',
        },
      },
    ];
  intent.payment_method = params.payment_method;
  if ('succeed' in behaviour) {
    Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, last_payment_error: null });
    return [200, intent];
  }
  const failure = { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: behaviour.decline };
  Object.assign(intent, { status: 'requires_payment_method', last_payment_error: failure });
  return [402, { error: { ...failure, payment_intent: intent } }];
}

/** Stripe's `POST /v1/refunds` on a PaymentIntent, as far as the stand-in goes (see the rules above). */
function refundIntent(
  objects: Map<string, Record<string, unknown>>,
  params: Record<string, string>,
  behaviour: RefundBehaviour,
): [number, Record<string, unknown>] {
  const intentId = params.payment_intent ?? '';
  const intent = objects.get(intentId);
  if (intent?.object !== 'payment_intent') return [404, missing('payment_intent', intentId)];
  if (intent.status !== 'succeeded') {
    return [
      400,
      {
        error: {
          type: 'invalid_request_error',
          code: 'charge_not_refundable',
          message: `This PaymentIntent (${intentId}) does not have a successful charge to refund.`,
        },
      },
    ];
  }
  const left = (intent.amount as number) - ((intent.amount_refunded as number | undefined) ?? 0);
  const amount = params.amount !== undefined ? Number(params.amount) : left;
  if (amount > left)
    return [
      400,
      {
        error: {
          type: 'invalid_request_error',
          code: 'amount_too_large',
          message: `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
          param: 'amount',
        },
      },
    ];
  if ('refuse' in behaviour) return [400, { error: { type: 'invalid_request_error', code: 'charge_disputed', message: behaviour.refuse } }];
  intent.amount_refunded = ((intent.amount_refunded as number | undefined) ?? 0) + amount;
  const refund = {
    id: id('re'),
    object: 'refund',
    amount,
    currency: intent.currency,
    payment_intent: intentId,
    charge: intent.latest_charge,
    status: behaviour.status,
    metadata: metadataOf(params),
    failure_reason: null,
    created: Math.floor(Date.now() / 1000),
  };
  objects.set(refund.id, refund);
  return [200, refund];
}

export async function startStripeStandIn(secretKey: string): Promise<StripeStandIn> {
  const received: StandInRequest[] = [];
  const objects = new Map<string, Record<string, unknown>>();
  const byKey = new Map<string, { path: string; body: string; status: number; answer: Record<string, unknown> }>();
  let failing = 0;
  let behaviour: ChargeBehaviour = { succeed: true };
  let refunds: RefundBehaviour = { status: 'succeeded' };
  let losingRefunds = 0;
  let observer: ((request: StandInRequest) => Promise<void>) | null = null;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const [path, query = ''] = (req.url ?? '').split('?') as [string, string?];
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
      const authorized = req.headers.authorization === `Bearer ${secretKey}`;
      const request = { method: req.method ?? '', path, params: paramsOf(req.method === 'GET' ? query : body), idempotencyKey, authorized };
      received.push(request);
      if (observer) await observer(request);
      const send = (status: number, answer: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': id('req') });
        res.end(JSON.stringify(answer));
      };
      if (failing > 0) {
        failing -= 1;
        return send(500, { error: { type: 'api_error', message: 'An unknown error occurred (the stand-in failing on purpose)' } });
      }
      if (!authorized) return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      const customer = req.method === 'GET' ? /^\/v1\/customers\/([^/]+)$/.exec(path) : null;
      if (customer) {
        const found = objects.get(customer[1]!);
        return found?.object === 'customer' ? send(200, found) : send(404, missing('customer', customer[1]!));
      }
      const intentRead = req.method === 'GET' ? /^\/v1\/payment_intents\/([^/]+)$/.exec(path) : null;
      if (intentRead) {
        const found = objects.get(intentRead[1]!);
        return found?.object === 'payment_intent' ? send(200, found) : send(404, missing('payment_intent', intentRead[1]!));
      }
      if (req.method === 'GET' && path === '/v1/refunds') {
        const intentId = paramsOf(query).payment_intent;
        const listed = [...objects.values()]
          .filter((found) => found.object === 'refund' && (intentId === undefined || found.payment_intent === intentId))
          .reverse();
        return send(200, { object: 'list', data: listed, has_more: false, url: '/v1/refunds' });
      }
      const refundRead = req.method === 'GET' ? /^\/v1\/refunds\/([^/]+)$/.exec(path) : null;
      if (refundRead) {
        const found = objects.get(refundRead[1]!);
        return found?.object === 'refund' ? send(200, found) : send(404, missing('refund', refundRead[1]!));
      }
      const cancel = req.method === 'POST' ? /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path) : null;
      if (cancel) {
        // Stripe's rule: a PaymentIntent that succeeded (or was cancelled) cannot be cancelled
        const found = objects.get(cancel[1]!);
        if (found?.object !== 'payment_intent') return send(404, missing('payment_intent', cancel[1]!));
        if (found.status === 'succeeded' || found.status === 'canceled') {
          return send(400, {
            error: {
              type: 'invalid_request_error',
              code: 'payment_intent_unexpected_state',
              message: `You cannot cancel this PaymentIntent because it has a status of ${String(found.status)}.`,
              payment_intent: found,
            },
          });
        }
        Object.assign(found, { status: 'canceled', cancellation_reason: paramsOf(body).cancellation_reason ?? null });
        return send(200, found);
      }
      const confirm = req.method === 'POST' ? /^\/v1\/payment_intents\/([^/]+)\/confirm$/.exec(path) : null;
      const refund = req.method === 'POST' && path === '/v1/refunds';
      const make = req.method === 'POST' ? makers[path] : undefined;
      if (!make && !confirm && !refund)
        return send(404, {
          error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path}); the stand-in answers only what Berth calls` },
        });
      if (idempotencyKey !== undefined) {
        const earlier = byKey.get(idempotencyKey);
        if (earlier && (earlier.path !== path || earlier.body !== body)) {
          return send(400, {
            error: { type: 'idempotency_error', message: 'Keys for idempotent requests can only be used with the same parameters they were first used with.' },
          });
        }
        if (earlier) return send(earlier.status, earlier.answer);
      }
      let status = 200;
      let answer: Record<string, unknown>;
      if (confirm) {
        [status, answer] = confirmIntent(objects.get(confirm[1]!), confirm[1]!, paramsOf(body), behaviour);
      } else if (refund) {
        [status, answer] = refundIntent(objects, paramsOf(body), refunds);
        if (status === 200 && losingRefunds > 0) {
          losingRefunds -= 1;
          return send(500, { error: { type: 'api_error', message: "An unknown error occurred (the stand-in losing a refund's answer on purpose)" } });
        }
      } else {
        answer = make!(paramsOf(body));
        objects.set(answer.id as string, answer);
      }
      // A replay answers what the first request was answered, not the object as it is now.
      if (idempotencyKey !== undefined) byKey.set(idempotencyKey, { path, body, status, answer: structuredClone(answer) });
      send(status, answer);
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
    saveCard: (customerId, paymentMethod) => {
      const found = objects.get(customerId);
      if (found?.object !== 'customer') throw new Error(`the stand-in made no customer ${customerId}`);
      found.invoice_settings = { default_payment_method: paymentMethod };
    },
    payIntent: (intentId) => {
      const found = objects.get(intentId);
      if (found?.object !== 'payment_intent') throw new Error(`the stand-in made no PaymentIntent ${intentId}`);
      Object.assign(found, { status: 'succeeded', amount_received: found.amount, latest_charge: id('ch') });
    },
    refundsWill: (next) => {
      refunds = next;
    },
    loseRefundAnswers: (count) => {
      losingRefunds = count;
    },
    settleRefund: (refundId, status, failureReason) => {
      const found = objects.get(refundId);
      if (found?.object !== 'refund') throw new Error(`the stand-in made no refund ${refundId}`);
      Object.assign(found, { status, failure_reason: failureReason ?? null });
    },
    chargesWill: (next) => {
      behaviour = next;
    },
    observeRequests: (next) => {
      observer = next;
    },
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
