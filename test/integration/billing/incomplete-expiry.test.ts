import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { choosePlan, entitlementsRow, markPaid, signedInOperator, signedInOwner } from '../../helpers/billing.ts';
import { billingEvents, listenToBilling, sweepAt } from '../../helpers/billing-lifecycle.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { call } from '../../helpers/team-members.ts';

/**
 * Stripe's `incomplete_expired`: a subscription whose first invoice is not paid within
 * BILLING_INCOMPLETE_EXPIRE_HOURS (23 by default) of its choice is cancelled by the sweep and its
 * invoice voided, so the team can choose again.
 */
let stack: Stack;
let operator = '';
const HOUR_MS = 3_600_000;

beforeAll(async () => {
  stack = await startStack({ workers: false, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  operator = (await signedInOperator(stack)).token;
});
afterAll(async () => {
  await stack?.stop();
});

describe('an unpaid first invoice', () => {
  it("paid by bank transfer (manual), expires the subscription 23 hours after the invoice's due date (not at 22 h 59): canceled, its invoice voided, the team free to choose again", async () => {
    const { user, token } = await signedInOwner(stack);
    await listenToBilling(stack, token);
    const chosen = (await choosePlan(stack, token, 'business')).body.data;
    const chosenAt = new Date(chosen.subscription.current_period_start).getTime();
    // a transfer takes days: 23 hours after the choice it is still waited for
    expect(await sweepAt(stack, new Date(chosenAt + 23 * HOUR_MS), [user.teamId])).toMatchObject({ expired: 0 });
    const dueAt = new Date(chosen.invoice.due_at).getTime();

    expect(await sweepAt(stack, new Date(dueAt + 23 * HOUR_MS - 60_000), [user.teamId])).toMatchObject({ expired: 0 });
    expect((await call(stack.client(), 'GET', '/v1/billing/subscription', token)).body.data.status).toBe('incomplete');
    expect((await call(stack.client(), 'GET', `/v1/billing/invoices/${chosen.invoice.id}`, token)).body.data.status).toBe('open');

    const expiry = new Date(dueAt + 23 * HOUR_MS);
    expect(await sweepAt(stack, expiry, [user.teamId])).toMatchObject({ expired: 1 });
    expect((await call(stack.client(), 'GET', '/v1/billing/subscription', token)).body.data).toMatchObject({
      status: 'canceled',
      ended_reason: 'incomplete_expired',
      ended_at: expiry.toISOString(),
    });
    expect((await call(stack.client(), 'GET', `/v1/billing/invoices/${chosen.invoice.id}`, token)).body.data).toMatchObject({
      status: 'void',
      voided_at: expiry.toISOString(),
    });
    expect(await entitlementsRow(stack, user.teamId)).toBeUndefined();

    const events = await billingEvents(stack, user.teamId);
    expect(events.filter((event) => event.type === 'invoice.voided').map((event) => event.data.invoice.id)).toEqual([chosen.invoice.id]);
    expect(events.filter((event) => event.type === 'subscription.canceled').map((event) => event.data.subscription)).toEqual([
      expect.objectContaining({ status: 'canceled', ended_reason: 'incomplete_expired' }),
    ]);
    // Idempotent, and the team may choose again.
    expect(await sweepAt(stack, expiry, [user.teamId])).toMatchObject({ expired: 0 });
    expect((await choosePlan(stack, token, 'starter')).body.data.subscription).toMatchObject({ status: 'incomplete', ended_reason: null });
  });

  it('leaves a paid subscription and a trial alone', async () => {
    const paid = await signedInOwner(stack);
    const chosen = (await choosePlan(stack, paid.token, 'business')).body.data;
    await markPaid(stack, operator, chosen.invoice.id);
    const trial = await signedInOwner(stack);
    expect((await choosePlan(stack, trial.token, 'business', { trial: true })).body.data.subscription.status).toBe('trialing');

    const later = new Date(new Date(chosen.subscription.current_period_start).getTime() + 24 * HOUR_MS);
    expect(await sweepAt(stack, later, [paid.user.teamId, trial.user.teamId])).toMatchObject({ expired: 0 });
    expect((await call(stack.client(), 'GET', '/v1/billing/subscription', paid.token)).body.data.status).toBe('active');
    expect((await call(stack.client(), 'GET', '/v1/billing/subscription', trial.token)).body.data.status).toBe('trialing');
  });
});
