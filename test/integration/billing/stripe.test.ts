import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { issueInvoice } from '../../../shared/domains/billing/issue-invoice.ts';
import type { InvoiceRow } from '../../../shared/domains/billing/rows.ts';
import { sweepSubscriptions } from '../../../shared/domains/billing/sweep-subscriptions.ts';
import { choosePlan, entitlementsRow, invoiceRow, signedInOperator, signedInOwner, subscriptionOf } from '../../helpers/billing.ts';
import { sweepAt } from '../../helpers/billing-lifecycle.ts';
import { overlapped } from '../../helpers/lock-barrier.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { deliverStripeEvent, stripeEvent, succeededIntent } from '../../helpers/stripe-events.ts';
import { startStripeStandIn, type StripeStandIn } from '../../helpers/stripe-stand-in.ts';
import { call } from '../../helpers/team-members.ts';

/**
 * The Stripe provider against a local stand-in for the two Stripe endpoints it calls (see
 * test/helpers/stripe-stand-in.ts: it is not Stripe), and its webhook with events signed by the
 * `stripe` package's own test signer. Tax at 20 %: business is 49.00 + 9.80 = 58.80 EUR.
 */
const SECRET_KEY = `sk_test_berth_${randomBytes(8).toString('hex')}`;
const WEBHOOK_SECRET = `whsec_${randomBytes(16).toString('hex')}`;
const signer = new Stripe('sk_test_signer_only').webhooks;

let stack: Stack;
let standIn: StripeStandIn;

beforeAll(async () => {
  standIn = await startStripeStandIn(SECRET_KEY);
  stack = await startStack({
    workers: false,
    env: {
      BILLING_TAX_RATE_BPS: '2000',
      BILLING_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: standIn.url,
    },
  });
});
afterAll(async () => {
  await stack?.stop();
  await standIn?.stop();
});

/** A team that chose `plan`: its reply, invoice and the PaymentIntent the stand-in made for it. */
async function subscribedTeam(plan = 'business') {
  const owner = await signedInOwner(stack);
  const chosen = await choosePlan(stack, owner.token, plan);
  expect(chosen.status, JSON.stringify(chosen.body)).toBe(201);
  const invoice = chosen.body.data.invoice as { id: number; total_minor: number };
  const intent = standIn.objects.get(chosen.body.data.payment.stripe.payment_intent) as Record<string, any>;
  expect(intent).toBeDefined();
  return { ...owner, chosen, invoice, intent };
}

/** Stripe's event that the PaymentIntent succeeded (with `changes` to the intent). */
const paidEvent = (intent: Record<string, any>, changes: Record<string, unknown> = {}) =>
  stripeEvent('payment_intent.succeeded', succeededIntent(intent, changes));

describe('choosing a plan with the Stripe provider', () => {
  it('answers 502 when Stripe fails, keeps the open invoice, and pays it through POST …/pay once Stripe answers (the same PaymentIntent on every ask)', async () => {
    const owner = await signedInOwner(stack);
    standIn.failNext(1);
    const failed = await choosePlan(stack, owner.token, 'business');
    expect(failed.status, JSON.stringify(failed.body)).toBe(502);
    expect(failed.body.error).toMatchObject({ code: 'UPSTREAM_ERROR' });
    expect(JSON.stringify(failed.body)).not.toContain(SECRET_KEY);
    expect(await subscriptionOf(stack, owner.token)).toMatchObject({ status: 'incomplete' });
    const [open] = (await call(stack.client(), 'GET', '/v1/billing/invoices?status=open', owner.token)).body.data;
    expect(failed.body.error.message).toContain(`/v1/billing/invoices/${open.id}/pay`);

    const paying = await call(stack.client(), 'POST', `/v1/billing/invoices/${open.id}/pay`, owner.token);
    expect(paying.status, JSON.stringify(paying.body)).toBe(200);
    expect(paying.body.data.payment).toMatchObject({
      outcome: 'pending',
      stripe: { payment_intent: expect.stringMatching(/^pi_/), client_secret: expect.stringMatching(/_secret_/) },
    });
    const again = await call(stack.client(), 'POST', `/v1/billing/invoices/${open.id}/pay`, owner.token);
    expect(again.body.data.payment.stripe).toEqual(paying.body.data.payment.stripe);

    const intent = standIn.objects.get(paying.body.data.payment.stripe.payment_intent)!;
    expect((await deliverStripeEvent(stack, paidEvent(intent))).status).toBe(200);
    expect(await subscriptionOf(stack, owner.token)).toMatchObject({ status: 'active' });
    const paid = await call(stack.client(), 'POST', `/v1/billing/invoices/${open.id}/pay`, owner.token);
    expect(paid.status).toBe(409);
    expect(paid.body.error.details.reason).toBe('invoice_not_open');
    const stranger = await signedInOwner(stack);
    expect((await call(stack.client(), 'POST', `/v1/billing/invoices/${open.id}/pay`, stranger.token)).status).toBe(404);
  });

  it("makes the team's customer and a PaymentIntent for the invoice at Stripe, and answers its client secret", async () => {
    const { user, chosen, invoice, intent } = await subscribedTeam();
    const { subscription, payment } = chosen.body.data;
    expect(subscription).toMatchObject({ status: 'incomplete', provider: 'stripe' });
    expect(invoice).toMatchObject({ provider: 'stripe', total_minor: 5880, status: 'open', payment_failed_at: null, payment_failure: null });
    expect(payment).toEqual({
      outcome: 'pending',
      instructions: expect.stringContaining('card'),
      stripe: { payment_intent: intent.id, client_secret: intent.client_secret },
    });
    expect(JSON.stringify(chosen.body)).not.toContain(SECRET_KEY);
    expect(JSON.stringify(chosen.body)).not.toContain(WEBHOOK_SECRET);

    const calls = standIn.received.filter((request) => request.params['metadata[team_id]'] === String(user.teamId));
    expect(calls.map((request) => [request.method, request.path, request.idempotencyKey, request.authorized])).toEqual([
      ['POST', '/v1/customers', `berth-invoice-${invoice.id}-customer`, true],
      ['POST', '/v1/payment_intents', `berth-invoice-${invoice.id}-payment-intent`, true],
    ]);
    const customer = await stack.ctx.db('stripe_customers').where({ team_id: user.teamId }).first();
    expect(customer.customer_id).toMatch(/^cus_/);
    expect(calls[0]!.params).toMatchObject({ name: user.teamName, 'metadata[team_id]': String(user.teamId) });
    expect(calls[1]!.params).toMatchObject({
      amount: '5880',
      currency: 'eur',
      customer: customer.customer_id,
      'metadata[invoice_id]': String(invoice.id),
      'metadata[team_id]': String(user.teamId),
      'automatic_payment_methods[enabled]': 'true',
    });
    expect((await invoiceRow(stack, invoice.id)).provider_ref).toBe(intent.id);
  });

  it('keeps the client secret out of the Idempotency-Key replay: the repeat answers it null, POST …/pay gives it again', async () => {
    const owner = await signedInOwner(stack);
    const keyed = { headers: { authorization: `Bearer ${owner.token}`, 'idempotency-key': `choose-${randomBytes(6).toString('hex')}` } };
    const body = { plan: 'business', trial: false };
    const first = await stack.client().post('/v1/billing/subscription', body, keyed);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const secret = first.body.data.payment.stripe.client_secret as string;
    expect(secret).toMatch(/_secret_/);
    for (const key of await stack.ctx.redis.keys(`${stack.ctx.config.redisPrefix}:idem:*`)) expect(await stack.ctx.redis.get(key)).not.toContain(secret);
    const replay = await stack.client().post('/v1/billing/subscription', body, keyed);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data.payment.stripe).toEqual({ payment_intent: first.body.data.payment.stripe.payment_intent, client_secret: null });
    const paying = await call(stack.client(), 'POST', `/v1/billing/invoices/${first.body.data.invoice.id}/pay`, owner.token);
    expect(paying.body.data.payment.stripe).toEqual(first.body.data.payment.stripe);
  });

  it('expires a card subscription whose first invoice is unpaid 23 hours after the choice (BILLING_INCOMPLETE_EXPIRE_HOURS)', async () => {
    const { user, chosen } = await subscribedTeam('starter');
    const chosenAt = new Date(chosen.body.data.subscription.current_period_start).getTime();
    expect(await sweepAt(stack, new Date(chosenAt + 23 * 3_600_000 - 60_000), [user.teamId])).toMatchObject({ expired: 0 });
    expect(await sweepAt(stack, new Date(chosenAt + 23 * 3_600_000), [user.teamId])).toMatchObject({ expired: 1 });
    expect((await invoiceRow(stack, chosen.body.data.invoice.id)).status).toBe('void');
    // nobody can pay it any more: its PaymentIntent is cancelled at Stripe
    expect(standIn.objects.get(chosen.body.data.payment.stripe.payment_intent)).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned' });
  });

  it('cancels the PaymentIntent of an invoice an operator voids', async () => {
    const team = await subscribedTeam('starter');
    const operatorToken = (await signedInOperator(stack)).token;
    expect((await call(stack.client(), 'POST', `/v1/billing/invoices/${team.invoice.id}/void`, operatorToken)).status).toBe(200);
    expect(standIn.objects.get(team.intent.id)).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned' });
  });

  it('cancels the PaymentIntent of an invoice voided by cancelling before paying; one paid meanwhile stays paid (for the operators to refund) and the answer is still 200', async () => {
    const first = await subscribedTeam('starter');
    expect((await call(stack.client(), 'DELETE', '/v1/billing/subscription', first.token)).status).toBe(200);
    expect(standIn.objects.get(first.intent.id)).toMatchObject({ status: 'canceled' });
    expect(
      standIn.received.filter((request) => request.path === `/v1/payment_intents/${first.intent.id}/cancel`).map((request) => request.idempotencyKey),
    ).toEqual([`berth-invoice-${first.invoice.id}-cancel`]);

    const racing = await subscribedTeam('starter');
    standIn.payIntent(racing.intent.id); // the customer paid a moment before the cancellation
    const cancelled = await call(stack.client(), 'DELETE', '/v1/billing/subscription', racing.token);
    expect(cancelled.status).toBe(200);
    expect(standIn.objects.get(racing.intent.id)).toMatchObject({ status: 'succeeded' });
    expect((await invoiceRow(stack, racing.invoice.id)).status).toBe('void');
    // its webhook finds a void invoice: nothing is settled, the subscription stays ended, and the
    // operators are told at error level to refund the money (paid_void, kept on the event's row)
    const errors: unknown[][] = [];
    const child = stack.ctx.logger.child.bind(stack.ctx.logger);
    const requestLoggers = vi.spyOn(stack.ctx.logger, 'child').mockImplementation((...args: Parameters<typeof child>) => {
      const made = child(...args);
      const error = made.error.bind(made);
      made.error = ((...logged: unknown[]) => {
        errors.push(logged);
        return (error as (...all: unknown[]) => void)(...logged);
      }) as typeof made.error;
      return made;
    });
    const event = paidEvent(standIn.objects.get(racing.intent.id)!);
    try {
      const reply = await deliverStripeEvent(stack, event);
      expect(reply.status).toBe(200);
      expect(reply.body.data.outcome).toBe('paid_void');
    } finally {
      requestLoggers.mockRestore();
    }
    expect(errors).toContainEqual([
      expect.objectContaining({ stripeEvent: event.id, outcome: 'paid_void', paymentIntent: racing.intent.id, invoiceId: String(racing.invoice.id) }),
      'money received for a void invoice: refund it',
    ]);
    expect(await stack.ctx.db('stripe_events').where({ id: event.id }).first()).toMatchObject({ outcome: 'paid_void' });
    expect((await invoiceRow(stack, racing.invoice.id)).status).toBe('void');
    expect(await subscriptionOf(stack, racing.token)).toMatchObject({ status: 'canceled' });
  });

  it('collects a retried invoice with the same idempotency key: the same PaymentIntent, no second customer', async () => {
    const { user, invoice, intent } = await subscribedTeam('starter');
    const made = standIn.objects.size;
    const again = await issueInvoice(stack.ctx, await invoiceRow(stack, invoice.id), stack.ctx.config.billing);
    expect(again).toMatchObject({ outcome: 'pending', stripe: { paymentIntentId: intent.id, clientSecret: intent.client_secret } });
    expect(standIn.objects.size).toBe(made);
    const calls = standIn.received.filter((request) => request.params['metadata[team_id]'] === String(user.teamId));
    // The customer is stored, so only the PaymentIntent is asked for again, under its key.
    expect(calls.map((request) => request.path)).toEqual(['/v1/customers', '/v1/payment_intents', '/v1/payment_intents']);
    expect(calls[2]!.idempotencyKey).toBe(calls[1]!.idempotencyKey);
    expect(await stack.ctx.db('stripe_customers').where({ team_id: user.teamId })).toHaveLength(1);
  });
});

describe("Stripe's webhook", () => {
  it('payment_intent.succeeded pays the invoice: the subscription becomes active with its limits', async () => {
    const { user, token, invoice, intent } = await subscribedTeam();
    expect(await entitlementsRow(stack, user.teamId)).toBeUndefined();
    const event = paidEvent(intent);
    const reply = await deliverStripeEvent(stack, event);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.data).toEqual({ event_id: event.id, type: 'payment_intent.succeeded', outcome: 'paid' });
    expect(await invoiceRow(stack, invoice.id)).toMatchObject({ status: 'paid', payment_reference: intent.id });
    expect((await subscriptionOf(stack, token)).status).toBe('active');
    expect(await entitlementsRow(stack, user.teamId)).toMatchObject({ max_sites: 5 });
    expect(await stack.ctx.db('stripe_events').where({ id: event.id }).first()).toMatchObject({ type: 'payment_intent.succeeded', outcome: 'paid' });
  });

  it('refuses a wrong secret, a missing signature and a stale timestamp with 400, doing nothing', async () => {
    const { token, invoice, intent } = await subscribedTeam();
    const wrong = await deliverStripeEvent(stack, paidEvent(intent), { secret: 'whsec_not_the_one' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ code: 'INVALID_SIGNATURE', details: { reason: 'signature_mismatch' } });
    const missing = await deliverStripeEvent(stack, paidEvent(intent), { header: null });
    expect(missing.body.error).toMatchObject({ code: 'INVALID_SIGNATURE', details: { reason: 'signature_missing' } });
    const stale = await deliverStripeEvent(stack, paidEvent(intent), { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(stale.status).toBe(400);
    expect(stale.body.error).toMatchObject({ code: 'INVALID_SIGNATURE', details: { reason: 'timestamp_outside_tolerance' } });
    // A body changed after signing does not verify either.
    const payload = JSON.stringify(paidEvent(intent));
    const header = signer.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const tampered = await stack.client().request('POST', '/v1/billing/stripe/webhook', {
      raw: payload.replace('"amount":5880', '"amount":1'),
      contentType: 'application/json',
      headers: { 'stripe-signature': header },
    });
    expect(tampered.body.error).toMatchObject({ code: 'INVALID_SIGNATURE', details: { reason: 'signature_mismatch' } });
    expect((await invoiceRow(stack, invoice.id)).status).toBe('open');
    expect((await subscriptionOf(stack, token)).status).toBe('incomplete');
    const recent = await deliverStripeEvent(stack, paidEvent(intent), { timestamp: Math.floor(Date.now() / 1000) - 240 });
    expect(recent.body.data.outcome).toBe('paid');
  });

  it('acts once on the same event, sent again later or twice at once', async () => {
    const { invoice, intent } = await subscribedTeam();
    const event = paidEvent(intent);
    // the test's uncommitted row with the event's id holds both deliveries at the record of the event: they
    // are in flight together; rolled back, one records it and the other finds it
    const {
      result: [first, second],
      waited,
    } = await overlapped(
      stack.ctx.db,
      (trx) => trx('stripe_events').insert({ id: event.id, type: event.type, outcome: 'ignored', received_at: new Date() }),
      2,
      'both deliveries',
      () => Promise.all([deliverStripeEvent(stack, event), deliverStripeEvent(stack, event)]),
      { rollback: true },
    );
    expect(waited).toBe(2);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect([first.body.data.outcome, second.body.data.outcome].sort()).toEqual(['duplicate', 'paid']);
    const paid = await invoiceRow(stack, invoice.id);
    const later = await deliverStripeEvent(stack, event);
    expect(later.body.data.outcome).toBe('duplicate');
    expect((await invoiceRow(stack, invoice.id)).paid_at).toEqual(paid.paid_at);
    expect(await stack.ctx.db('stripe_events').where({ id: event.id })).toHaveLength(1);
    // Another event for the same PaymentIntent finds the invoice paid already: ignored.
    expect((await deliverStripeEvent(stack, paidEvent(intent))).body.data.outcome).toBe('ignored');
  });

  it('payment_intent.payment_failed is noted on the invoice, which stays open', async () => {
    const { token, invoice, intent } = await subscribedTeam();
    const failed = stripeEvent('payment_intent.payment_failed', {
      ...intent,
      status: 'requires_payment_method',
      last_payment_error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
    });
    expect((await deliverStripeEvent(stack, failed)).body.data.outcome).toBe('payment_failed');
    const shown = (await call(stack.client(), 'GET', `/v1/billing/invoices/${invoice.id}`, token)).body.data;
    expect(shown).toMatchObject({ status: 'open', payment_failure: 'Your card was declined.', paid_at: null });
    expect(shown.payment_failed_at).toEqual(expect.any(String));
    expect((await subscriptionOf(stack, token)).status).toBe('incomplete');
    // The customer tries another card: paid.
    expect((await deliverStripeEvent(stack, paidEvent(intent))).body.data.outcome).toBe('paid');
    expect((await subscriptionOf(stack, token)).status).toBe('active');
  });

  it("never pays across teams: the metadata's invoice and team must be one invoice, of its amount, by its PaymentIntent", async () => {
    const a = await subscribedTeam();
    const b = await subscribedTeam();
    const outcomes = [
      // B's PaymentIntent naming A's invoice (with B's team, then A's team), and A's with another amount or currency.
      await deliverStripeEvent(stack, paidEvent(b.intent, { metadata: { invoice_id: String(a.invoice.id), team_id: String(b.user.teamId) } })),
      await deliverStripeEvent(stack, paidEvent(b.intent, { metadata: { invoice_id: String(a.invoice.id), team_id: String(a.user.teamId) } })),
      await deliverStripeEvent(stack, paidEvent(a.intent, { amount: 1, amount_received: 1 })),
      await deliverStripeEvent(stack, paidEvent(a.intent, { currency: 'usd' })),
      await deliverStripeEvent(stack, paidEvent(a.intent, { metadata: {} })),
    ].map((reply) => reply.body.data.outcome);
    expect(outcomes).toEqual(['ignored', 'ignored', 'ignored', 'ignored', 'ignored']);
    expect((await invoiceRow(stack, a.invoice.id)).status).toBe('open');
    expect((await invoiceRow(stack, b.invoice.id)).status).toBe('open');
    expect(await entitlementsRow(stack, a.user.teamId)).toBeUndefined();
  });

  it('answers 200 ignored to event types it does not act on', async () => {
    const reply = await deliverStripeEvent(stack, stripeEvent('customer.created', { id: 'cus_x', object: 'customer' }));
    expect(reply.status).toBe(200);
    expect(reply.body.data.outcome).toBe('ignored');
  });
});

describe('renewals with the Stripe provider', () => {
  it("the sweep's renewal invoice gets its own PaymentIntent, which the webhook pays", async () => {
    const { user, token, intent } = await subscribedTeam('starter');
    expect((await deliverStripeEvent(stack, paidEvent(intent))).body.data.outcome).toBe('paid');
    const subscription = await subscriptionOf(stack, token);
    const after = new Date(new Date(subscription.current_period_end).getTime() + 1000);
    await sweepSubscriptions(stack.ctx, stack.ctx.config.billing, { info: () => undefined }, after);
    const renewal = await stack.ctx.db<InvoiceRow>('invoices').where({ team_id: user.teamId, status: 'open' }).first();
    expect(renewal).toMatchObject({ provider: 'stripe', total_minor: 1800, provider_ref: expect.stringMatching(/^pi_/) });
    const asked = standIn.received.filter((request) => request.params['metadata[invoice_id]'] === String(renewal!.id));
    expect(asked.map((request) => [request.path, request.idempotencyKey])).toEqual([['/v1/payment_intents', `berth-invoice-${renewal!.id}-payment-intent`]]);
    const renewalIntent = standIn.objects.get(renewal!.provider_ref!) as Record<string, any>;
    expect((await deliverStripeEvent(stack, paidEvent(renewalIntent))).body.data.outcome).toBe('paid');
    expect((await invoiceRow(stack, renewal!.id)).status).toBe('paid');
  });
});
