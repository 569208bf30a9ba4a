import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addInterval } from '../../../shared/domains/billing/money.ts';
import { MAIL_QUEUE } from '../../../shared/jobs/mail.jobs.ts';
import { choosePlan, entitlementsRow, markPaid, signedInOperator, signedInOwner, subscriptionOf } from '../../helpers/billing.ts';
import { billingEvents, listenToBilling, sweepAt } from '../../helpers/billing-lifecycle.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { call } from '../../helpers/team-members.ts';

/**
 * Trials with the default BILLING_TRIAL_END_BEHAVIOR (invoice): a team's first subscription to a
 * plan with trial days (starter and business: 14) trials with the plan's entitlements and no
 * invoice; its end starts the first paid period with its invoice. The sweep runs at explicit
 * instants for the test's own team. Tax at 20 %: business is 49.00 + 9.80 = 58.80 EUR.
 */
let stack: Stack;
let operator = '';
const DAY_MS = 86_400_000;

beforeAll(async () => {
  stack = await startStack({ workers: false, env: { BILLING_TAX_RATE_BPS: '2000', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  operator = (await signedInOperator(stack)).token;
});
afterAll(async () => {
  await stack?.stop();
});

/** A fresh team trialing `plan`, its billing events recorded. */
async function trialingTeam(plan: string) {
  const owner = await signedInOwner(stack);
  await listenToBilling(stack, owner.token);
  const chosen = await choosePlan(stack, owner.token, plan, { trial: true });
  expect(chosen.status, JSON.stringify(chosen.body)).toBe(201);
  return { ...owner, chosen: chosen.body.data, trialEnd: new Date(chosen.body.data.subscription.trial_end) };
}

describe('a trial', () => {
  it("starts with the plan's entitlements at once and no invoice", async () => {
    const team = await trialingTeam('business');
    const { subscription } = team.chosen;
    expect(team.chosen).toMatchObject({ invoice: null, payment: null });
    expect(subscription).toMatchObject({ status: 'trialing', plan: { code: 'business', trial_days: 14 }, ended_reason: null, cancel_at_period_end: false });
    expect(team.trialEnd.getTime() - new Date(subscription.trial_start).getTime()).toBe(14 * DAY_MS);
    // The trial is its first period, and its end the anchor of the paid ones.
    expect(subscription).toMatchObject({
      current_period_start: subscription.trial_start,
      current_period_end: subscription.trial_end,
      billing_anchor: subscription.trial_end,
    });
    expect(await entitlementsRow(stack, team.user.teamId)).toMatchObject({ plan: 'business', max_sites: 5 });
    expect((await call(stack.client(), 'GET', '/v1/billing/invoices', team.token)).body.pagination.total).toBe(0);
    expect(await billingEvents(stack, team.user.teamId)).toEqual([
      {
        type: 'subscription.created',
        data: { subscription: expect.objectContaining({ status: 'trialing', plan: 'business', trial_end: subscription.trial_end, ended_reason: null }) },
      },
    ]);
  });

  it("ends with the first paid period: invoiced at the trial's end and active; unpaid, it goes past_due like any invoice", async () => {
    const team = await trialingTeam('business');
    expect(await sweepAt(stack, new Date(team.trialEnd.getTime() - 1), [team.user.teamId])).toMatchObject({ renewed: 0 });
    expect((await subscriptionOf(stack, team.token)).status).toBe('trialing');

    expect(await sweepAt(stack, team.trialEnd, [team.user.teamId])).toMatchObject({ renewed: 1, paused: 0, ended: 0 });
    const active = await subscriptionOf(stack, team.token);
    expect(active).toMatchObject({
      status: 'active',
      billing_anchor: team.trialEnd.toISOString(),
      trial_end: team.trialEnd.toISOString(),
      current_period_start: team.trialEnd.toISOString(),
      current_period_end: addInterval(team.trialEnd, 'month').toISOString(),
    });
    const invoices = (await call(stack.client(), 'GET', '/v1/billing/invoices', team.token)).body.data;
    expect(invoices).toEqual([
      expect.objectContaining({ status: 'open', total_minor: 5880, period_start: team.trialEnd.toISOString(), finalized_at: team.trialEnd.toISOString() }),
    ]);
    // Issued like a renewal: its mail is queued (the workers are off in this file).
    const mails = await stack.ctx.queues.get(MAIL_QUEUE).getJobs(['waiting', 'delayed', 'prioritized']);
    expect(mails.some((job) => job.name === 'mail.invoice' && job.data.invoiceId === invoices[0].id)).toBe(true);
    expect(await entitlementsRow(stack, team.user.teamId)).toMatchObject({ plan: 'business' });
    const events = await billingEvents(stack, team.user.teamId);
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(['invoice.finalized', 'subscription.updated']));
    expect(events.find((event) => event.type === 'subscription.updated')!.data.subscription).toMatchObject({
      status: 'active',
      current_period_end: active.current_period_end,
    });

    await sweepAt(stack, new Date(invoices[0].due_at), [team.user.teamId]);
    expect((await subscriptionOf(stack, team.token)).status).toBe('past_due');
    expect((await markPaid(stack, operator, invoices[0].id)).body.data.subscription.status).toBe('active');
  });

  it('cancelled, keeps its entitlements until its end, then ends (trial_canceled) without an invoice; no second trial', async () => {
    const team = await trialingTeam('starter');
    const canceling = await call(stack.client(), 'DELETE', '/v1/billing/subscription', team.token);
    expect(canceling.body.data).toMatchObject({ status: 'trialing', cancel_at_period_end: true, ended_at: null });
    expect(await entitlementsRow(stack, team.user.teamId)).toMatchObject({ plan: 'starter' });

    expect(await sweepAt(stack, team.trialEnd, [team.user.teamId])).toMatchObject({ ended: 1, renewed: 0 });
    expect(await subscriptionOf(stack, team.token)).toMatchObject({
      status: 'canceled',
      ended_reason: 'trial_canceled',
      ended_at: team.trialEnd.toISOString(),
    });
    expect(await entitlementsRow(stack, team.user.teamId)).toBeUndefined();
    expect((await call(stack.client(), 'GET', '/v1/billing/invoices', team.token)).body.pagination.total).toBe(0);
    const canceled = (await billingEvents(stack, team.user.teamId)).filter((event) => event.type === 'subscription.canceled');
    expect(canceled.map((event) => event.data.subscription)).toEqual([expect.objectContaining({ status: 'canceled', ended_reason: 'trial_canceled' })]);

    // Choosing again, even a trial plan asking for the trial: invoiced at once.
    const again = await choosePlan(stack, team.token, 'starter', { trial: true });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.data.subscription).toMatchObject({ status: 'incomplete', trial_start: null, trial_end: null, ended_reason: null });
    expect(again.body.data.invoice).toMatchObject({ status: 'open', total_minor: 1800 });
  });

  it("is skipped with `trial: false`, which leaves the team's one trial unused", async () => {
    const { user, token } = await signedInOwner(stack);
    const paying = await choosePlan(stack, token, 'starter', { trial: false });
    expect(paying.body.data).toMatchObject({ subscription: { status: 'incomplete', trial_end: null }, invoice: { status: 'open' } });
    expect(await entitlementsRow(stack, user.teamId)).toBeUndefined();
    expect((await call(stack.client(), 'DELETE', '/v1/billing/subscription', token)).body.data.status).toBe('canceled');
    expect((await choosePlan(stack, token, 'starter', { trial: true })).body.data.subscription.status).toBe('trialing');
  });

  it('is not offered by a plan without trial days', async () => {
    const { token } = await signedInOwner(stack);
    const chosen = await choosePlan(stack, token, 'agency', { trial: true });
    expect(chosen.body.data).toMatchObject({ subscription: { status: 'incomplete', trial_start: null }, invoice: { total_minor: 17_880 } });
  });
});

describe('changing plans during a trial', () => {
  it('applies at once, up or down, without an invoice; the trial keeps its end and its end bills the plan chosen last', async () => {
    const team = await trialingTeam('business');
    const change = (plan: string) => call(stack.client(), 'PATCH', '/v1/billing/subscription', team.token, { plan });

    const down = await change('starter');
    expect(down.status, JSON.stringify(down.body)).toBe(200);
    expect(down.body.data).toMatchObject({
      effective: 'now',
      invoice: null,
      subscription: { status: 'trialing', plan: { code: 'starter' }, pending_plan: null, trial_end: team.trialEnd.toISOString() },
    });
    expect(await entitlementsRow(stack, team.user.teamId)).toMatchObject({ plan: 'starter', max_sites: 1 });
    expect((await change('agency')).body.data).toMatchObject({ effective: 'now', invoice: null, subscription: { plan: { code: 'agency' } } });
    expect(await entitlementsRow(stack, team.user.teamId)).toMatchObject({ plan: 'agency', max_sites: 25 });
    expect((await call(stack.client(), 'GET', '/v1/billing/invoices', team.token)).body.pagination.total).toBe(0);

    await sweepAt(stack, team.trialEnd, [team.user.teamId]);
    const [first] = (await call(stack.client(), 'GET', '/v1/billing/invoices', team.token)).body.data;
    const invoice = (await call(stack.client(), 'GET', `/v1/billing/invoices/${first.id}`, team.token)).body.data;
    expect(invoice).toMatchObject({ subtotal_minor: 14_900, total_minor: 17_880, period_start: team.trialEnd.toISOString() });
    expect(invoice.lines[0].description).toMatch(/^Agency plan/);
    expect(await subscriptionOf(stack, team.token)).toMatchObject({ status: 'active', plan: { code: 'agency' } });
  });
});
