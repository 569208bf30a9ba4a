import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addInterval } from '../../../shared/domains/billing/money.ts';
import { choosePlan, markPaid, signedInOperator, signedInOwner, subscriptionOf } from '../../helpers/billing.ts';
import { sweepAt } from '../../helpers/billing-lifecycle.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { call } from '../../helpers/team-members.ts';

/**
 * Renewals keep the day of month of the subscription's `billing_anchor`: a period anchored on the
 * 31st renews on the last day of a shorter month and on the 31st again after (chaining one month
 * from the previous end would drift to the 28th). The dates are put decades ahead, so the sweeps
 * other test files run now never reach them, and their invoices are numbered in years no other
 * test counts (invoice-numbers.test.ts owns 2031 to 2034).
 */
const AHEAD = 30;
let stack: Stack;
let operator = '';

beforeAll(async () => {
  stack = await startStack({ workers: false });
  operator = (await signedInOperator(stack)).token;
});
afterAll(async () => {
  await stack?.stop();
});

/** A team whose paid subscription to `plan` is anchored at `anchor`, in its first period. */
async function anchoredTeam(plan: string, anchor: Date) {
  const owner = await signedInOwner(stack);
  const chosen = (await choosePlan(stack, owner.token, plan)).body.data;
  await markPaid(stack, operator, chosen.invoice.id);
  const interval = chosen.subscription.plan.interval;
  await stack.ctx
    .db('subscriptions')
    .where({ id: chosen.subscription.id })
    .update({ billing_anchor: anchor, current_period_start: anchor, current_period_end: addInterval(anchor, interval) });
  return owner;
}

const iso = (year: number, month: number, day: number, hour: number) => new Date(Date.UTC(year, month - 1, day, hour)).toISOString();

describe('renewals', () => {
  it('keep a monthly anchor on the 31st: 28/29 February, 31 March, 30 April, 31 May', async () => {
    const year = new Date().getUTCFullYear() + AHEAD;
    const february = new Date(Date.UTC(year, 2, 0)).getUTCDate();
    const team = await anchoredTeam('starter', new Date(iso(year, 1, 31, 10)));
    const ends = [iso(year, 2, february, 10), iso(year, 3, 31, 10), iso(year, 4, 30, 10), iso(year, 5, 31, 10)];
    for (const [index, end] of ends.slice(0, -1).entries()) {
      expect(await sweepAt(stack, new Date(end), [team.user.teamId])).toMatchObject({ renewed: 1 });
      expect(await subscriptionOf(stack, team.token)).toMatchObject({
        status: 'active',
        current_period_start: end,
        current_period_end: ends[index + 1],
        billing_anchor: iso(year, 1, 31, 10),
      });
      // Paid, so a month later the sweep renews it rather than dunning it.
      const [renewal] = (await call(stack.client(), 'GET', '/v1/billing/invoices?status=open', team.token)).body.data;
      expect((await markPaid(stack, operator, renewal.id)).status).toBe(200);
    }
    const invoices = (await call(stack.client(), 'GET', '/v1/billing/invoices', team.token)).body.data as Array<{ period_start: string; period_end: string }>;
    expect(
      invoices
        .slice(0, 3)
        .reverse()
        .map((invoice) => [invoice.period_start, invoice.period_end]),
    ).toEqual([
      [ends[0], ends[1]],
      [ends[1], ends[2]],
      [ends[2], ends[3]],
    ]);
  });

  it('catch up missed yearly periods on a 29 February anchor: 28 February, then 29 February in the next leap year', async () => {
    let leap = new Date().getUTCFullYear() + AHEAD;
    while (new Date(Date.UTC(leap, 1, 29)).getUTCMonth() !== 1) leap += 1;
    const team = await anchoredTeam('agency-yearly', new Date(iso(leap, 2, 29, 12)));
    expect(await sweepAt(stack, new Date(iso(leap + 4, 3, 1, 0)), [team.user.teamId])).toMatchObject({ renewed: 4 });
    const invoices = (await call(stack.client(), 'GET', '/v1/billing/invoices', team.token)).body.data as Array<{ period_start: string }>;
    expect(
      invoices
        .slice(0, 4)
        .reverse()
        .map((invoice) => invoice.period_start),
    ).toEqual([iso(leap + 1, 2, 28, 12), iso(leap + 2, 2, 28, 12), iso(leap + 3, 2, 28, 12), iso(leap + 4, 2, 29, 12)]);
    expect(await subscriptionOf(stack, team.token)).toMatchObject({
      current_period_start: iso(leap + 4, 2, 29, 12),
      current_period_end: iso(leap + 5, 2, 28, 12),
    });
  });
});
