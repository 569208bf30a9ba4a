import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepSubscriptions } from '../../../shared/domains/billing/sweep-subscriptions.ts';
import { prorate } from '../../../shared/domains/billing/proration.ts';
import { activeTeam, choosePlan, entitlementsRow, signedInOperator, signedInOwner } from '../../helpers/billing.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { call, failedFields } from '../../helpers/team-members.ts';

/**
 * PATCH /v1/billing/subscription: an upgrade applies at once with a proration invoice by the second;
 * a downgrade waits for the renewal; the wrong states and plans are refused. No tax here, so the
 * invoice's total is the proration's net.
 */
let stack: Stack;
let operator = '';
const DAY_MS = 86_400_000;
const quiet = { info: () => undefined };

beforeAll(async () => {
  stack = await startStack({ workers: false });
  operator = (await signedInOperator(stack)).token;
});
afterAll(async () => {
  await stack?.stop();
});

const change = (token: string, plan: string) => call(stack.client(), 'PATCH', '/v1/billing/subscription', token, { plan });

describe('changing plans', () => {
  it('upgrades at once: the new limits apply and an invoice charges the rest of the period by the second', async () => {
    const team = await activeTeam(stack, operator, 'starter');
    // Ten days into a 30-day period, so the amounts are easy to check.
    const start = new Date(Date.now() - 10 * DAY_MS);
    const end = new Date(start.getTime() + 30 * DAY_MS);
    await stack.ctx.db('subscriptions').where({ id: team.subscriptionId }).update({ current_period_start: start, current_period_end: end });

    const before = new Date();
    const reply = await change(team.token, 'business');
    const after = new Date();
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.data).toMatchObject({ effective: 'now', subscription: { status: 'active', plan: { code: 'business' }, pending_plan: null } });
    expect(await entitlementsRow(stack, team.user.teamId)).toMatchObject({ plan: 'business', max_sites: 5 });

    const invoice = reply.body.data.invoice;
    const [credit, charge] = invoice.lines;
    expect(credit).toMatchObject({ kind: 'item', description: expect.stringMatching(/^Unused time on Starter plan/) });
    expect(charge).toMatchObject({ kind: 'item', description: expect.stringMatching(/^Remaining time on Business plan/) });
    // The server's clock read lies between before and after: its proration is one of theirs.
    const bounds = [before, after].map((at) => prorate({ periodStart: start, periodEnd: end, at, oldPriceMinor: 1500, newPriceMinor: 4900 }));
    expect(-credit.amount_minor).toBeGreaterThanOrEqual(-bounds[1]!.creditMinor);
    expect(-credit.amount_minor).toBeLessThanOrEqual(-bounds[0]!.creditMinor);
    expect(credit.amount_minor).toBeCloseTo(-1000, -1); // 20 of 30 days of 15.00
    expect(charge.amount_minor).toBeCloseTo(3267, -1); // 20 of 30 days of 49.00
    expect(invoice).toMatchObject({ status: 'open', subtotal_minor: credit.amount_minor + charge.amount_minor, tax_minor: 0, period_end: end.toISOString() });
    expect(invoice.total_minor).toBe(invoice.subtotal_minor);
    expect(invoice.lines).toHaveLength(2); // no tax line at 0 %
  });

  it('upgrades in a period that is over but not yet renewed without a proration (was a 500): the renewal bills the new plan', async () => {
    const team = await activeTeam(stack, operator, 'starter');
    const start = new Date(Date.now() - 31 * DAY_MS);
    const end = new Date(Date.now() - 60_000);
    await stack.ctx
      .db('subscriptions')
      .where({ id: team.subscriptionId })
      .update({ current_period_start: start, current_period_end: end, billing_anchor: start });
    const reply = await change(team.token, 'business');
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.data).toMatchObject({ effective: 'now', invoice: null, subscription: { plan: { code: 'business' } } });
    expect(await entitlementsRow(stack, team.user.teamId)).toMatchObject({ plan: 'business' });
    await sweepSubscriptions({ db: stack.ctx.db, queues: stack.ctx.queues }, stack.ctx.config.billing, quiet, new Date(), { teamIds: [team.user.teamId] });
    const renewal = await stack.ctx.db('invoices').where({ subscription_id: team.subscriptionId, period_start: end }).first('total_minor');
    expect(renewal?.total_minor).toBe(4900);
  });

  it('downgrades at the renewal: limits and price stay until then, the renewal bills and entitles the new plan', async () => {
    const team = await activeTeam(stack, operator, 'agency');
    const reply = await change(team.token, 'starter');
    expect(reply.body.data).toMatchObject({
      effective: 'period_end',
      invoice: null,
      subscription: { plan: { code: 'agency' }, pending_plan: { code: 'starter' } },
    });
    expect(await entitlementsRow(stack, team.user.teamId)).toMatchObject({ plan: 'agency' });

    // Choosing the current plan again drops the pending downgrade; choosing the downgrade again restores it.
    expect((await change(team.token, 'agency')).body.data).toMatchObject({ effective: 'unchanged', subscription: { pending_plan: null } });
    expect((await change(team.token, 'starter')).body.data.subscription.pending_plan.code).toBe('starter');

    const end = new Date(Date.now() - 1000);
    await stack.ctx
      .db('subscriptions')
      .where({ id: team.subscriptionId })
      .update({ current_period_start: new Date(end.getTime() - 30 * DAY_MS), current_period_end: end });
    await sweepSubscriptions(stack.ctx, stack.ctx.config.billing, quiet);
    const renewed = (await call(stack.client(), 'GET', '/v1/billing/subscription', team.token)).body.data;
    expect(renewed).toMatchObject({ status: 'active', plan: { code: 'starter' }, pending_plan: null, current_period_start: end.toISOString() });
    expect(await entitlementsRow(stack, team.user.teamId)).toMatchObject({ plan: 'starter', max_sites: 1 });
    const latest = (await call(stack.client(), 'GET', '/v1/billing/invoices', team.token)).body.data[0];
    expect(latest).toMatchObject({ total_minor: 1500, period_start: end.toISOString() });
  });

  it('refuses what cannot change: no subscription (404), not active (409), another interval or no such plan (422)', async () => {
    const stranger = await signedInOwner(stack);
    expect((await change(stranger.token, 'business')).status).toBe(404);

    const incomplete = await signedInOwner(stack);
    await choosePlan(stack, incomplete.token, 'starter');
    const refused = await change(incomplete.token, 'business');
    expect(refused.status).toBe(409);
    expect(refused.body.error.details.reason).toBe('subscription_not_active');

    const team = await activeTeam(stack, operator, 'agency');
    const yearly = await change(team.token, 'agency-yearly');
    expect(yearly.status).toBe(422);
    expect(failedFields(yearly)).toEqual(['plan']);
    expect(failedFields(await change(team.token, 'nope'))).toEqual(['plan']);
    expect((await change(team.token, 'agency')).body.data).toMatchObject({ effective: 'unchanged', invoice: null });

    await call(stack.client(), 'DELETE', '/v1/billing/subscription', team.token);
    expect((await change(team.token, 'business')).body.error.details.reason).toBe('subscription_not_active');
  });
});
