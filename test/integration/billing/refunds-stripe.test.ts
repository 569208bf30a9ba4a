import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { choosePlan, creditNote, entitlementsRow, markPaid, signedInOperator, signedInOwner } from '../../helpers/billing.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { deliverStripeEvent, stripeEvent } from '../../helpers/stripe-events.ts';
import { startStripeStandIn, type StripeStandIn } from '../../helpers/stripe-stand-in.ts';
import { call } from '../../helpers/team-members.ts';

/**
 * Refunds of credit notes and disputes with the Stripe provider, against the local stand-in (see
 * test/helpers/stripe-stand-in.ts: it is not Stripe; its refunds follow its documented stand-in
 * rules), and Stripe's events signed with the `stripe` package's own test signer. Tax at
 * 20 %: business is 49.00 + 9.80 = 58.80 EUR.
 */
const SECRET_KEY = `sk_test_berth_${randomBytes(8).toString('hex')}`;
const WEBHOOK_SECRET = `whsec_${randomBytes(16).toString('hex')}`;

let stack: Stack;
let standIn: StripeStandIn;
let operator = '';

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
  operator = (await signedInOperator(stack)).token;
});
afterAll(async () => {
  await stack?.stop();
  await standIn?.stop();
});

/** A team whose business invoice was paid by card: the stand-in's PaymentIntent succeeded and Stripe's event said so. */
async function paidByCard() {
  const owner = await signedInOwner(stack);
  const chosen = await choosePlan(stack, owner.token, 'business');
  expect(chosen.status, JSON.stringify(chosen.body)).toBe(201);
  const invoice = chosen.body.data.invoice as { id: number; number: string };
  const intentId = chosen.body.data.payment.stripe.payment_intent as string;
  standIn.payIntent(intentId);
  const intent = standIn.objects.get(intentId)!;
  expect((await deliverStripeEvent(stack, stripeEvent('payment_intent.succeeded', intent))).body.data.outcome).toBe('paid');
  return { ...owner, invoice, intent };
}

const creditNoteRow = (id: number) => stack.ctx.db('credit_notes').where({ id }).first();
const refundCalls = (creditNoteId: number) =>
  standIn.received.filter((request) => request.path === '/v1/refunds' && request.params['metadata[credit_note_id]'] === String(creditNoteId));

/** Stripe's charge of a PaymentIntent as `charge.refunded` carries it; `refunds` left out as newer API versions do. */
function chargeOf(intent: Record<string, unknown>, amountRefunded: number, refunds?: Array<Record<string, unknown>>): Record<string, unknown> {
  return {
    id: intent.latest_charge,
    object: 'charge',
    amount: intent.amount,
    amount_refunded: amountRefunded,
    currency: intent.currency,
    payment_intent: intent.id,
    refunded: amountRefunded === intent.amount,
    ...(refunds ? { refunds: { object: 'list', data: refunds, has_more: false, url: `/v1/charges/${String(intent.latest_charge)}/refunds` } } : {}),
  };
}

function disputeOf(intent: Record<string, unknown>, status: string, id = `dp_${randomBytes(8).toString('hex')}`): Record<string, unknown> {
  return {
    id,
    object: 'dispute',
    amount: intent.amount,
    currency: intent.currency,
    charge: intent.latest_charge,
    payment_intent: intent.id,
    reason: 'fraudulent',
    status,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
  };
}

describe('refunding a credit note through Stripe', () => {
  it("refunds the card for the credit note's amount, keyed by the credit note, once the credit note is committed", async () => {
    const { token, invoice, intent } = await paidByCard();
    // What another connection (the pool's, not the API's transaction) reads of the note when Stripe gets
    // the refund: a row there is committed; one still in the API's transaction would not be seen.
    const seenAtRefund: unknown[] = [];
    standIn.observeRequests(async (request) => {
      if (request.method !== 'POST' || request.path !== '/v1/refunds') return;
      seenAtRefund.push(
        await stack.ctx
          .db('credit_notes')
          .where({ id: Number(request.params['metadata[credit_note_id]']) })
          .first()
          .catch((error: Error) => error.message),
      );
    });
    const reply = await creditNote(stack, operator, invoice.id, { amount_minor: 2000, reason: 'Partial refund', refund: true }).finally(() =>
      standIn.observeRequests(null),
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const note = reply.body.data;
    expect(seenAtRefund).toEqual([
      expect.objectContaining({ id: note.id, invoice_id: invoice.id, amount_minor: 2000, refund_status: 'pending', provider_ref: null }),
    ]);
    expect(note).toMatchObject({ amount_minor: 2000, refund_status: 'refunded', provider_ref: expect.stringMatching(/^re_/), refunded_at: expect.any(String) });
    const calls = refundCalls(note.id);
    expect(calls.map((request) => [request.idempotencyKey, request.authorized, request.params.payment_intent, request.params.amount])).toEqual([
      [`berth-credit-note-${note.id}-refund`, true, intent.id, '2000'],
    ]);
    expect(standIn.objects.get(note.provider_ref)).toMatchObject({ object: 'refund', amount: 2000, payment_intent: intent.id });
    expect((await call(stack.client(), 'GET', `/v1/billing/invoices/${invoice.id}`, token)).body.data).toMatchObject({
      status: 'paid',
      amount_credited_minor: 2000,
      refund_state: 'partially_refunded',
      credit_notes: [expect.objectContaining({ refund_status: 'refunded' })],
    });
    // Stripe's confirmation of a refund Berth recorded already changes nothing.
    const confirmed = await deliverStripeEvent(
      stack,
      stripeEvent('charge.refunded', chargeOf(intent, 2000, [{ ...standIn.objects.get(note.provider_ref)!, status: 'succeeded' }])),
    );
    expect(confirmed.body.data.outcome).toBe('ignored');
  });

  it('a pending refund is confirmed by charge.refunded, once (a repeat is a duplicate)', async () => {
    const { invoice, intent } = await paidByCard();
    standIn.refundsWill({ status: 'pending' });
    const note = (await creditNote(stack, operator, invoice.id, { reason: 'Full refund', refund: true })).body.data;
    standIn.refundsWill({ status: 'succeeded' });
    expect(note).toMatchObject({ amount_minor: 5880, tax_minor: 980, refund_status: 'pending', provider_ref: expect.stringMatching(/^re_/) });
    const event = stripeEvent('charge.refunded', chargeOf(intent, 5880, [{ ...standIn.objects.get(note.provider_ref)!, status: 'succeeded' }]));
    expect((await deliverStripeEvent(stack, event)).body.data.outcome).toBe('refunded');
    expect(await creditNoteRow(note.id)).toMatchObject({ refund_status: 'refunded', provider_ref: note.provider_ref });
    expect((await deliverStripeEvent(stack, event)).body.data.outcome).toBe('duplicate');
    expect(await stack.ctx.db('stripe_events').where({ id: event.id })).toHaveLength(1);
  });

  it('charge.refunded without its refunds list (newer API versions) confirms nothing: refund.updated settles each refund', async () => {
    const { invoice, intent } = await paidByCard();
    standIn.refundsWill({ status: 'pending' });
    const note = (await creditNote(stack, operator, invoice.id, { amount_minor: 880, reason: 'Pending', refund: true })).body.data;
    standIn.refundsWill({ status: 'succeeded' });
    // amount_refunded counts the pending refund (and any made in Stripe's dashboard): no proof of this one
    expect((await deliverStripeEvent(stack, stripeEvent('charge.refunded', chargeOf(intent, 880)))).body.data.outcome).toBe('ignored');
    expect((await creditNoteRow(note.id)).refund_status).toBe('pending');
    const pending = standIn.objects.get(note.provider_ref)!;
    expect((await deliverStripeEvent(stack, stripeEvent('refund.updated', { ...pending, status: 'pending' }))).body.data.outcome).toBe('ignored');
    const settled = stripeEvent('refund.updated', { ...pending, status: 'succeeded' });
    expect((await deliverStripeEvent(stack, settled)).body.data.outcome).toBe('refunded');
    expect(await creditNoteRow(note.id)).toMatchObject({ refund_status: 'refunded', provider_ref: note.provider_ref, refunded_at: expect.any(Date) });
    expect((await deliverStripeEvent(stack, settled)).body.data.outcome).toBe('duplicate');
    expect(await stack.ctx.db('stripe_events').where({ id: settled.id })).toEqual([expect.objectContaining({ type: 'refund.updated', outcome: 'refunded' })]);
  });

  it('charge.refund.updated settles a note without a refund id by its metadata; a failed refund is recorded failed; a dashboard refund is ignored', async () => {
    const { invoice, intent } = await paidByCard();
    standIn.loseRefundAnswers(1);
    const lost = await creditNote(stack, operator, invoice.id, { amount_minor: 700, reason: 'Answer lost', refund: true });
    expect(lost.status).toBe(502);
    const [note] = (await call(stack.client(), 'GET', `/v1/admin/billing/credit-notes?invoice_id=${invoice.id}`, operator)).body.data;
    expect(note).toMatchObject({ refund_status: 'failed', provider_ref: null });
    const made = [...standIn.objects.values()].find((found) => found.object === 'refund' && found.payment_intent === intent.id)!;
    expect((await deliverStripeEvent(stack, stripeEvent('charge.refund.updated', { ...made, status: 'succeeded' }))).body.data.outcome).toBe('refunded');
    expect(await creditNoteRow(note.id)).toMatchObject({ refund_status: 'refunded', provider_ref: made.id, refund_failure: null });

    // the refund fails after all (the card was closed): the money is owed again, for the retry route
    expect(
      (await deliverStripeEvent(stack, stripeEvent('refund.updated', { ...made, status: 'failed', failure_reason: 'expired_or_canceled_card' }))).body.data
        .outcome,
    ).toBe('refund_failed');
    expect(await creditNoteRow(note.id)).toMatchObject({
      refund_status: 'failed',
      provider_ref: made.id,
      refund_failure: expect.stringContaining('expired_or_canceled_card'),
      refunded_at: null,
    });

    const dashboard = { ...made, id: `re_${randomBytes(8).toString('hex')}`, metadata: {}, status: 'succeeded' };
    expect((await deliverStripeEvent(stack, stripeEvent('refund.updated', dashboard))).body.data.outcome).toBe('ignored');
    expect(
      (await deliverStripeEvent(stack, stripeEvent('refund.updated', { ...made, payment_intent: 'pi_not_berths', status: 'succeeded' }))).body.data.outcome,
    ).toBe('ignored');
  });

  it("a refund Stripe fails is recorded failed with Stripe's words and answered 502 naming the retry route, which refunds it once", async () => {
    const { invoice, intent } = await paidByCard();
    standIn.failNext(1);
    const failed = await creditNote(stack, operator, invoice.id, { amount_minor: 1000, reason: 'Stripe was down', refund: true });
    expect(failed.status, JSON.stringify(failed.body)).toBe(502);
    expect(failed.body.error.code).toBe('UPSTREAM_ERROR');
    expect(JSON.stringify(failed.body)).not.toContain(SECRET_KEY);
    const [note] = (await call(stack.client(), 'GET', `/v1/admin/billing/credit-notes?invoice_id=${invoice.id}`, operator)).body.data;
    expect(note).toMatchObject({ amount_minor: 1000, refund_status: 'failed', refund_failure: expect.stringContaining('unknown error'), provider_ref: null });
    expect(failed.body.error.message).toContain(`POST /v1/admin/billing/credit-notes/${note.id}/refund`);
    // The credit note stands (issued, counted): the money is owed back either way.
    expect((await stack.ctx.db('invoices').where({ id: invoice.id }).first()).amount_credited_minor).toBe(1000);

    const retried = await call(stack.client(), 'POST', `/v1/admin/billing/credit-notes/${note.id}/refund`, operator);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.data).toMatchObject({ refund_status: 'refunded', refund_failure: null, provider_ref: expect.stringMatching(/^re_/) });
    // Stripe failed the first ask at its list of the PaymentIntent's refunds: the retry makes the one refund
    expect(refundCalls(note.id).map((request) => request.idempotencyKey)).toEqual([`berth-credit-note-${note.id}-refund`]);
    expect(intent.amount_refunded).toBe(1000);
    const again = await call(stack.client(), 'POST', `/v1/admin/billing/credit-notes/${note.id}/refund`, operator);
    expect(again.status).toBe(409);
    expect(again.body.error.details.reason).toBe('refund_not_retryable');
  });

  it("a refund Stripe refuses keeps Stripe's message (never the key) on the credit note", async () => {
    const { invoice } = await paidByCard();
    standIn.refundsWill({ refuse: 'This charge is disputed and cannot be refunded.' });
    const failed = await creditNote(stack, operator, invoice.id, { amount_minor: 100, reason: 'Refused', refund: true });
    standIn.refundsWill({ status: 'succeeded' });
    expect(failed.status).toBe(502);
    expect(failed.body.error.message).toContain('This charge is disputed and cannot be refunded.');
    const row = await stack.ctx.db('credit_notes').where({ invoice_id: invoice.id }).first();
    expect(row).toMatchObject({ refund_status: 'failed', refund_failure: 'This charge is disputed and cannot be refunded.' });
  });

  it('a refund whose create timed out after Stripe made it is adopted by the retry, not made twice', async () => {
    const { invoice, intent } = await paidByCard();
    standIn.loseRefundAnswers(1);
    const lost = await creditNote(stack, operator, invoice.id, { amount_minor: 1500, reason: 'Timed out', refund: true });
    expect(lost.status, JSON.stringify(lost.body)).toBe(502);
    const [note] = (await call(stack.client(), 'GET', `/v1/admin/billing/credit-notes?invoice_id=${invoice.id}`, operator)).body.data;
    expect(note).toMatchObject({ refund_status: 'failed', provider_ref: null });
    expect(intent.amount_refunded).toBe(1500); // Stripe refunded it; Berth never heard

    const retried = await call(stack.client(), 'POST', `/v1/admin/billing/credit-notes/${note.id}/refund`, operator);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.data).toMatchObject({ refund_status: 'refunded', provider_ref: expect.stringMatching(/^re_/), refund_failure: null });
    expect(standIn.objects.get(retried.body.data.provider_ref)).toMatchObject({ metadata: { credit_note_id: String(note.id) } });
    expect(refundCalls(note.id)).toHaveLength(1); // one create: the retry listed the PaymentIntent's refunds and adopted it
    expect(standIn.received.filter((request) => request.method === 'GET' && request.path === '/v1/refunds').at(-1)!.params).toMatchObject({
      payment_intent: intent.id,
    });
    expect(intent.amount_refunded).toBe(1500);
  });

  it('a pending refund is not made again: the retry retrieves it and records its status; a failed one is asked for under a new key', async () => {
    const { invoice, intent } = await paidByCard();
    standIn.refundsWill({ status: 'pending' });
    const first = (await creditNote(stack, operator, invoice.id, { amount_minor: 1000, reason: 'Pending for days', refund: true })).body.data;
    const second = (await creditNote(stack, operator, invoice.id, { amount_minor: 2000, reason: 'Pending, then failed', refund: true })).body.data;
    standIn.refundsWill({ status: 'succeeded' });
    expect([first.refund_status, second.refund_status]).toEqual(['pending', 'pending']);

    const stillPending = await call(stack.client(), 'POST', `/v1/admin/billing/credit-notes/${first.id}/refund`, operator);
    expect(stillPending.body.data).toMatchObject({ refund_status: 'pending', provider_ref: first.provider_ref });
    standIn.settleRefund(first.provider_ref, 'succeeded');
    const settled = await call(stack.client(), 'POST', `/v1/admin/billing/credit-notes/${first.id}/refund`, operator);
    expect(settled.status).toBe(200);
    expect(settled.body.data).toMatchObject({ refund_status: 'refunded', provider_ref: first.provider_ref });
    expect(standIn.received.filter((request) => request.method === 'GET' && request.path === `/v1/refunds/${first.provider_ref}`)).toHaveLength(2);
    expect(refundCalls(first.id)).toHaveLength(1);

    standIn.settleRefund(second.provider_ref, 'failed', 'lost_or_stolen_card');
    const failed = await call(stack.client(), 'POST', `/v1/admin/billing/credit-notes/${second.id}/refund`, operator);
    expect(failed.status).toBe(502);
    expect(await creditNoteRow(second.id)).toMatchObject({ refund_status: 'failed', refund_failure: expect.stringContaining('lost_or_stolen_card') });
    const again = await call(stack.client(), 'POST', `/v1/admin/billing/credit-notes/${second.id}/refund`, operator);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data).toMatchObject({ refund_status: 'refunded', provider_ref: expect.not.stringMatching(second.provider_ref) });
    expect(refundCalls(second.id).map((request) => request.idempotencyKey)).toEqual([
      `berth-credit-note-${second.id}-refund`,
      `berth-credit-note-${second.id}-refund-2`,
    ]);
    expect(intent.amount_refunded).toBe(5000); // the stand-in counts the failed refund too (its rule); Stripe would give it back
  });

  it('a Stripe invoice an operator marked paid by hand is not refunded through Stripe: `not_applicable`', async () => {
    const owner = await signedInOwner(stack);
    const invoice = (await choosePlan(stack, owner.token, 'business')).body.data.invoice as { id: number };
    expect((await markPaid(stack, operator, invoice.id, 'bank transfer 2026-11-25')).status).toBe(200);
    const reply = await creditNote(stack, operator, invoice.id, { amount_minor: 500, reason: 'Paid by transfer', refund: true });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body.data).toMatchObject({ refund_status: 'not_applicable', provider_ref: null });
    expect(refundCalls(reply.body.data.id)).toEqual([]);
  });

  it('asks for the refund before the mail: a mail that cannot be queued (Redis down) is logged, the note still 201 and refunded', async () => {
    const { invoice } = await paidByCard();
    const down = vi.spyOn(stack.ctx.queues, 'get').mockReturnValue({ add: () => Promise.reject(new Error('Connection is closed.')) } as never);
    const logged = vi.spyOn(stack.ctx.logger, 'error');
    try {
      const reply = await creditNote(stack, operator, invoice.id, { amount_minor: 300, reason: 'Redis is down', refund: true });
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      expect(reply.body.data).toMatchObject({ refund_status: 'refunded', provider_ref: expect.stringMatching(/^re_/) });
      expect(refundCalls(reply.body.data.id)).toHaveLength(1);
      expect(logged).toHaveBeenCalledWith(
        expect.objectContaining({ creditNoteId: reply.body.data.id, err: 'Connection is closed.' }),
        'credit note issued, but its mail could not be queued',
      );
    } finally {
      down.mockRestore();
      logged.mockRestore();
    }
  });

  it('refund: false is a credit only: no call to Stripe, `not_applicable`', async () => {
    const { invoice } = await paidByCard();
    const note = (await creditNote(stack, operator, invoice.id, { amount_minor: 500, reason: 'Credit only', refund: false })).body.data;
    expect(note.refund_status).toBe('not_applicable');
    expect(refundCalls(note.id)).toEqual([]);
  });
});

describe('Stripe disputes', () => {
  it("records a dispute of an invoice's payment and its loss, once, with invoice.disputed and credit_note.issued events; entitlements stay", async () => {
    const { user, token, invoice, intent } = await paidByCard();
    await stack.ctx.db('webhook_endpoints').insert({ team_id: user.teamId, url: 'https://hooks.example.test/berth', secret_sealed: 'unused-here' });
    const created = stripeEvent('charge.dispute.created', disputeOf(intent, 'needs_response'));
    const disputeId = (created.data as { object: { id: string } }).object.id;
    expect((await deliverStripeEvent(stack, created)).body.data.outcome).toBe('disputed');
    expect((await deliverStripeEvent(stack, created)).body.data.outcome).toBe('duplicate');
    const shown = (await call(stack.client(), 'GET', `/v1/billing/invoices/${invoice.id}`, token)).body.data;
    expect(shown).toMatchObject({
      status: 'paid',
      amount_lost_minor: 0,
      disputes: [
        expect.objectContaining({ amount_minor: 5880, currency: 'EUR', reason: 'fraudulent', status: 'needs_response', closed_at: null, lost_at: null }),
      ],
    });

    expect((await creditNote(stack, operator, invoice.id, { amount_minor: 100, reason: 'Goodwill', refund: false })).status).toBe(201);
    const lost = stripeEvent('charge.dispute.closed', disputeOf(intent, 'lost', disputeId));
    expect((await deliverStripeEvent(stack, lost)).body.data.outcome).toBe('dispute_closed');
    expect((await deliverStripeEvent(stack, lost)).body.data.outcome).toBe('duplicate');
    // Stripe sending the close again under a new event id: recorded, the loss counted once.
    expect((await deliverStripeEvent(stack, stripeEvent('charge.dispute.closed', disputeOf(intent, 'lost', disputeId)))).body.data.outcome).toBe(
      'dispute_closed',
    );
    const after = (await call(stack.client(), 'GET', `/v1/billing/invoices/${invoice.id}`, token)).body.data;
    expect(after).toMatchObject({
      status: 'paid',
      amount_lost_minor: 5880,
      disputes: [expect.objectContaining({ status: 'lost', lost_at: expect.any(String), closed_at: expect.any(String) })],
    });
    expect(await stack.ctx.db('invoice_disputes').where({ stripe_dispute_id: disputeId })).toHaveLength(1);
    expect(await entitlementsRow(stack, user.teamId)).toMatchObject({ max_sites: 5 });

    // the chargeback took it all back: nothing is left to credit
    const over = await creditNote(stack, operator, invoice.id, { amount_minor: 1, reason: 'After the loss', refund: false });
    expect(over.status).toBe(409);
    expect(over.body.error.details.reason).toBe('credit_exceeds_invoice');
    const events = (await stack.ctx.db('webhook_events').where({ team_id: user.teamId }).orderBy('created_at')) as Array<{ type: string; body: string }>;
    const disputed = events.filter((event) => event.type === 'invoice.disputed');
    expect(disputed).toHaveLength(1);
    expect(JSON.parse(disputed[0]!.body).data).toMatchObject({
      invoice: { id: invoice.id, number: invoice.number },
      dispute: { amount_minor: 5880, status: 'needs_response' },
    });
    expect(events.filter((event) => event.type === 'invoice.dispute_closed').map((event) => JSON.parse(event.body).data.dispute.status)).toEqual([
      'lost',
      'lost',
    ]);
    const issued = events.filter((event) => event.type === 'credit_note.issued');
    expect(issued.map((event) => JSON.parse(event.body).data.credit_note)).toEqual([
      expect.objectContaining({ invoice_id: invoice.id, amount_minor: 100, refund_status: 'not_applicable' }),
    ]);
  });

  it('a lost chargeback counts against what is left to credit (409 credit_exceeds_invoice past it)', async () => {
    const { invoice, intent } = await paidByCard();
    const dispute = { ...disputeOf(intent, 'lost'), amount: 2000 };
    expect((await deliverStripeEvent(stack, stripeEvent('charge.dispute.closed', dispute))).body.data.outcome).toBe('dispute_closed');
    const first = await creditNote(stack, operator, invoice.id, { amount_minor: 1000, reason: 'Part', refund: false });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const over = await creditNote(stack, operator, invoice.id, { amount_minor: 2881, reason: 'Too much', refund: false });
    expect(over.status).toBe(409);
    expect(over.body.error.details.reason).toBe('credit_exceeds_invoice');
    expect(over.body.error.message).toContain('2000 lost to disputes');
    const rest = await creditNote(stack, operator, invoice.id, { reason: 'The rest', refund: false });
    expect(rest.body.data).toMatchObject({ amount_minor: 2880 });
    expect(await stack.ctx.db('invoices').where({ id: invoice.id }).first()).toMatchObject({ amount_credited_minor: 3880, amount_lost_minor: 2000 });
  });

  it('a won dispute loses nothing; a dispute of a PaymentIntent Berth did not make is ignored', async () => {
    const { invoice, intent } = await paidByCard();
    const dispute = disputeOf(intent, 'under_review');
    expect((await deliverStripeEvent(stack, stripeEvent('charge.dispute.created', dispute))).body.data.outcome).toBe('disputed');
    expect((await deliverStripeEvent(stack, stripeEvent('charge.dispute.closed', { ...dispute, status: 'won' }))).body.data.outcome).toBe('dispute_closed');
    expect(await stack.ctx.db('invoices').where({ id: invoice.id }).first()).toMatchObject({ amount_lost_minor: 0 });
    expect(
      (await deliverStripeEvent(stack, stripeEvent('charge.dispute.created', { ...disputeOf(intent, 'needs_response'), payment_intent: 'pi_not_berths' }))).body
        .data.outcome,
    ).toBe('ignored');
  });
});
