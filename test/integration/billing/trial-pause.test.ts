import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payInvoice } from '../../../shared/domains/billing/invoice-payments.ts';
import { addInterval } from '../../../shared/domains/billing/money.ts';
import { choosePlan, entitlementsRow, markPaid, signedInOperator, signedInOwner, subscriptionOf } from '../../helpers/billing.ts';
import { billingEvents, listenToBilling, sweepAt } from '../../helpers/billing-lifecycle.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { call } from '../../helpers/team-members.ts';

/**
 * BILLING_TRIAL_END_BEHAVIOR=pause: a trial that ends uncancelled pauses the subscription
 * (entitlements withdrawn, no invoice); `POST /v1/billing/subscription/resume` starts a period now
 * with its invoice, and paying it (an operator, manual provider) makes it active again. No tax.
 */
let stack: Stack;
let operator = '';

beforeAll(async () => {
  stack = await startStack({ workers: false, env: { BILLING_TRIAL_END_BEHAVIOR: 'pause', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  operator = (await signedInOperator(stack)).token;
});
afterAll(async () => {
  await stack?.stop();
});

const resume = (token: string) => call(stack.client(), 'POST', '/v1/billing/subscription/resume', token);

/** A fresh team whose trial of `plan` has ended: paused. */
async function pausedTeam(plan: string) {
  const owner = await signedInOwner(stack);
  await listenToBilling(stack, owner.token);
  const chosen = await choosePlan(stack, owner.token, plan, { trial: true });
  expect(chosen.body.data.subscription.status).toBe('trialing');
  const trialEnd = new Date(chosen.body.data.subscription.trial_end);
  expect(await sweepAt(stack, trialEnd, [owner.user.teamId])).toMatchObject({ paused: 1, renewed: 0 });
  return { ...owner, trialEnd };
}

describe('a trial ending paused', () => {
  it('withdraws the entitlements without an invoice; resuming invoices a period from now, and paying it makes the subscription active', async () => {
    const team = await pausedTeam('business');
    expect(await subscriptionOf(stack, team.token)).toMatchObject({
      status: 'paused',
      plan: { code: 'business' },
      current_period_end: team.trialEnd.toISOString(),
    });
    expect(await entitlementsRow(stack, team.user.teamId)).toBeUndefined();
    expect((await call(stack.client(), 'GET', '/v1/billing/invoices', team.token)).body.pagination.total).toBe(0);
    const site = await call(stack.client(), 'POST', '/v1/sites', team.token, {
      name: 'Paused',
      php_version: '8.2',
      wordpress: { title: 'x', admin_user: 'admin', admin_email: 'a@example.test' },
    });
    expect(site.status).toBe(402);
    const paused = (await billingEvents(stack, team.user.teamId)).filter((event) => event.type === 'subscription.updated');
    expect(paused.map((event) => event.data.subscription.status)).toEqual(['paused']);
    // Paused is not ended: no new subscription, no plan change until it is resumed.
    expect((await choosePlan(stack, team.token, 'starter')).body.error.details.reason).toBe('subscription_exists');
    const change = await call(stack.client(), 'PATCH', '/v1/billing/subscription', team.token, { plan: 'agency' });
    expect(change.status).toBe(409);
    expect(change.body.error).toMatchObject({ code: 'CONFLICT', details: { reason: 'subscription_not_active' }, message: expect.stringContaining('/resume') });

    const before = Date.now();
    const resumed = await resume(team.token);
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    const { subscription, invoice, payment } = resumed.body.data;
    const anchor = new Date(subscription.billing_anchor);
    expect(anchor.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(subscription).toMatchObject({
      status: 'paused',
      current_period_start: anchor.toISOString(),
      current_period_end: addInterval(anchor, 'month').toISOString(),
    });
    expect(invoice).toMatchObject({ status: 'open', total_minor: 4900, period_start: anchor.toISOString() });
    expect(payment).toMatchObject({ outcome: 'pending', instructions: expect.stringContaining(invoice.number) });
    expect(await entitlementsRow(stack, team.user.teamId)).toBeUndefined();

    // Asked again while its invoice is open: the same invoice, nothing new.
    const again = await resume(team.token);
    expect(again.body.data.invoice.id).toBe(invoice.id);
    expect((await call(stack.client(), 'GET', '/v1/billing/invoices', team.token)).body.pagination.total).toBe(1);

    const paid = await markPaid(stack, operator, invoice.id);
    expect(paid.body.data.subscription).toMatchObject({ status: 'active', billing_anchor: anchor.toISOString() });
    expect(await entitlementsRow(stack, team.user.teamId)).toMatchObject({ plan: 'business', max_sites: 5 });
    const notPaused = await resume(team.token);
    expect(notPaused.status).toBe(409);
    expect(notPaused.body.error).toMatchObject({ code: 'CONFLICT', details: { reason: 'subscription_not_paused' } });
    const statuses = (await billingEvents(stack, team.user.teamId))
      .filter((event) => event.type === 'subscription.updated')
      .map((event) => event.data.subscription.status);
    expect(statuses).toEqual(['paused', 'paused', 'active']);
  });

  it('bills at resumption only the add-ons still held, and a resumption paid after its due date starts its period at the payment', async () => {
    const owner = await signedInOwner(stack);
    const chosen = await choosePlan(stack, owner.token, 'business', { trial: true });
    expect((await call(stack.client(), 'PUT', '/v1/billing/subscription/addons/extra-site', owner.token, { quantity: 2 })).body.data.invoice).toBeNull();
    expect((await call(stack.client(), 'PUT', '/v1/billing/subscription/addons/extra-disk-50', owner.token, { quantity: 1 })).status).toBe(200);
    expect((await call(stack.client(), 'DELETE', '/v1/billing/subscription/addons/extra-site', owner.token)).body.data.addon.pending_quantity).toBe(0);
    // a yearly plan would bill the monthly add-ons at the wrong price: refused while they are held
    const yearly = await call(stack.client(), 'PATCH', '/v1/billing/subscription', owner.token, { plan: 'agency-yearly' });
    expect(yearly.status).toBe(422);
    expect(JSON.stringify(yearly.body.error)).toContain('extra-disk-50');
    expect(await sweepAt(stack, new Date(chosen.body.data.subscription.trial_end), [owner.user.teamId])).toMatchObject({ paused: 1 });

    const resumed = (await resume(owner.token)).body.data;
    const items = resumed.invoice.lines.filter((line: { kind: string }) => line.kind === 'item') as Array<{ description: string; amount_minor: number }>;
    expect(items.map((line) => line.amount_minor)).toEqual([4900, 1000]);
    expect(items[0]!.description).toContain('Business');
    expect(items[1]!.description).toContain('Extra 50 GiB disk');
    const due = new Date(resumed.invoice.due_at);
    // paid a day after its due date: the period starts then, not at the resumption
    const paidAt = new Date(due.getTime() + 86_400_000);
    const settled = await stack.ctx.db.transaction((trx) => payInvoice(trx, resumed.invoice.id, { reference: 'late transfer' }, paidAt));
    expect(settled.subscription).toMatchObject({ status: 'active' });
    expect(settled.subscription!.current_period_start.toISOString()).toBe(paidAt.toISOString());
    expect(settled.subscription!.billing_anchor!.toISOString()).toBe(paidAt.toISOString());
    expect(settled.subscription!.current_period_end.toISOString()).toBe(addInterval(paidAt, 'month').toISOString());
    // the next sweep, a month after the resumption, renews nothing: the period runs from the payment
    expect(await sweepAt(stack, addInterval(new Date(resumed.subscription.current_period_start), 'month'), [owner.user.teamId])).toMatchObject({ renewed: 0 });
  });

  it("may be cancelled: it ends at once and the resumed period's open invoice is voided", async () => {
    const team = await pausedTeam('starter');
    const invoice = (await resume(team.token)).body.data.invoice;
    const canceled = await call(stack.client(), 'DELETE', '/v1/billing/subscription', team.token);
    expect(canceled.status).toBe(200);
    expect(canceled.body.data).toMatchObject({ status: 'canceled', ended_reason: 'canceled', ended_at: expect.any(String) });
    expect((await call(stack.client(), 'GET', `/v1/billing/invoices/${invoice.id}`, team.token)).body.data.status).toBe('void');
    const types = (await billingEvents(stack, team.user.teamId)).map((event) => event.type);
    expect(types).toEqual(expect.arrayContaining(['invoice.voided', 'subscription.canceled']));
    const ended = await resume(team.token);
    expect(ended.status).toBe(409);
    expect(ended.body.error.details.reason).toBe('subscription_ended');

    // Paused and never resumed: ends at once too, nothing to void.
    const idle = await pausedTeam('starter');
    expect((await call(stack.client(), 'DELETE', '/v1/billing/subscription', idle.token)).body.data).toMatchObject({
      status: 'canceled',
      ended_reason: 'canceled',
    });
  });

  it("does not happen to a trial cancelled meanwhile: it ends at the trial's end", async () => {
    const owner = await signedInOwner(stack);
    const trialEnd = new Date((await choosePlan(stack, owner.token, 'business', { trial: true })).body.data.subscription.trial_end);
    await call(stack.client(), 'DELETE', '/v1/billing/subscription', owner.token);
    expect(await sweepAt(stack, trialEnd, [owner.user.teamId])).toMatchObject({ ended: 1, paused: 0 });
    expect(await subscriptionOf(stack, owner.token)).toMatchObject({ status: 'canceled', ended_reason: 'trial_canceled' });
  });
});

describe('resuming', () => {
  it('is for a paused subscription only: 404 without one, 409 subscription_not_paused otherwise', async () => {
    const { token } = await signedInOwner(stack);
    expect((await resume(token)).status).toBe(404);
    await choosePlan(stack, token, 'starter');
    const incomplete = await resume(token);
    expect(incomplete.status).toBe(409);
    expect(incomplete.body.error.details.reason).toBe('subscription_not_paused');
  });
});
