import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepAt } from '../../helpers/billing-lifecycle.ts';
import { choosePlan, entitlementsRow, invoiceOf, markPaid, signedInOperator, signedInOwner, subscriptionOf } from '../../helpers/billing.ts';
import { attemptsOf, day, dayAfterDue, mailsTo, renewalInvoice } from '../../helpers/dunning.ts';
import { overlapped, withApplicationName } from '../../helpers/lock-barrier.ts';
import { testDatabaseUrl } from '../../helpers/services.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { addMember } from '../../helpers/team-members.ts';

/**
 * Dunning with the manual provider (bank transfer): an overdue renewal invoice is reminded on the
 * days of BILLING_DUNNING_SCHEDULE_DAYS (default 1,3,5,7) after its due date, each once, by mail to
 * the owners and billing members (the workers send it to the test's SMTP server); 10 days after the
 * due date the subscription is unpaid and a last mail says so. The sweep runs at explicit times:
 * the invoice is due a day after the renewal, so everything happens within the renewed period.
 * Tax at 20 %: starter is 15.00 + 3.00 = 18.00 EUR.
 */
const DAY_MS = 86_400_000;
let stack: Stack;
const APPLICATION_NAME = 'berth-test-dunning-manual';
let operator = '';

beforeAll(async () => {
  // named in pg_stat_activity: other files' sweeps (unscoped) may queue behind the test's lock too, and are not counted
  stack = await startStack({
    env: {
      DATABASE_URL: withApplicationName(testDatabaseUrl, APPLICATION_NAME),
      BILLING_TAX_RATE_BPS: '2000',
      BILLING_INVOICE_DUE_DAYS: '1',
      BILLING_UNPAID_AFTER_DAYS: '10',
    },
  });
  operator = (await signedInOperator(stack)).token;
});
afterAll(async () => {
  await stack?.stop();
});

const reminder = (number: string) => new RegExp(`^Invoice ${number} is overdue: €18\\.00$`);
const withdrawn = /^Your Berth plan's limits were withdrawn/;

/** An active starter subscription (its first invoice paid), a billing member and a developer, and its renewal invoice, open. */
async function overdueTransferTeam() {
  const owner = await signedInOwner(stack);
  const team = { teamId: owner.user.teamId, teamName: owner.user.teamName };
  const billing = await addMember(stack.ctx.db, team, 'billing');
  const developer = await addMember(stack.ctx.db, team, 'developer');
  const chosen = await choosePlan(stack, owner.token, 'starter');
  expect(chosen.status, JSON.stringify(chosen.body)).toBe(201);
  expect((await markPaid(stack, operator, chosen.body.data.invoice.id)).status).toBe(200);
  const subscriptionId = chosen.body.data.subscription.id as number;
  const invoice = await renewalInvoice(stack, subscriptionId);
  return { ...owner, billing, developer, subscriptionId, invoice, number: invoice.number! };
}

describe('reminders for an overdue bank-transfer invoice', () => {
  it('are sent on days 1, 3, 5 and 7 after the due date, once each, to the owners and billing members', async () => {
    const team = await overdueTransferTeam();
    expect((await sweepAt(stack, new Date(team.invoice.due_at!.getTime() + DAY_MS - 60_000))).dunning).toMatchObject({ attempts: 0 });
    for (const [index, days] of [1, 3, 5, 7].entries()) {
      // Twice at the same time: the second sweep finds the attempt made.
      const first = await sweepAt(stack, dayAfterDue(team.invoice, days));
      const second = await sweepAt(stack, dayAfterDue(team.invoice, days));
      expect(second.dunning?.attempts).toBe(0);
      expect(first.dunning?.attempts).toBeGreaterThanOrEqual(1);
      expect(await mailsTo(stack, team.user.email, reminder(team.number))).toHaveLength(index + 1);
      // Between the days, nothing more.
      await sweepAt(stack, dayAfterDue(team.invoice, days + 1));
    }
    expect(await mailsTo(stack, team.billing.email, reminder(team.number))).toHaveLength(4);
    expect(await mailsTo(stack, team.developer.email, /./)).toEqual([]);

    const attempts = await attemptsOf(stack, team.invoice.id);
    expect(attempts.map((row) => [row.attempt, row.outcome, row.failure_reason])).toEqual([
      [1, 'reminded', null],
      [2, 'reminded', null],
      [3, 'reminded', null],
      [4, 'reminded', null],
    ]);
    expect(attempts.map((row) => row.scheduled_for.getTime() - team.invoice.due_at!.getTime())).toEqual([1, 3, 5, 7].map((days) => days * DAY_MS));
    expect(attempts.every((row) => row.mailed_at !== null)).toBe(true);

    const [mail] = await mailsTo(stack, team.user.email, reminder(team.number));
    expect(mail!.text).toContain(
      `Invoice ${team.number} of the team "${team.user.teamName}" for €18.00 was due on ${day(team.invoice.due_at!)} and is still open.`,
    );
    expect(mail!.text).toContain(`Pay by bank transfer with the reference ${team.number}`);
    expect(mail!.text).toContain(
      `If it is still unpaid on ${day(new Date(team.invoice.due_at!.getTime() + 10 * DAY_MS))}, your plan's limits are withdrawn that day`,
    );
    expect(mail!.text).toContain(`/billing/invoices/${team.invoice.id}`);
    expect(mail!.text).not.toContain('/v1/billing/');
    // Past due, not yet unpaid: the plan's limits stay.
    expect(await (await subscriptionOf(stack, team.token)).status).toBe('past_due');
    expect(await entitlementsRow(stack, team.user.teamId)).toMatchObject({ plan: 'starter' });
    await markPaid(stack, operator, team.invoice.id);
  });

  it("are shown on the invoice with the next attempt's time", async () => {
    const team = await overdueTransferTeam();
    const before = await invoiceOf(stack, team.token, team.invoice.id);
    expect(before).toMatchObject({ status: 'open', dunning_attempts: [], next_attempt_at: new Date(team.invoice.due_at!.getTime() + DAY_MS).toISOString() });
    await sweepAt(stack, dayAfterDue(team.invoice, 1));
    await sweepAt(stack, dayAfterDue(team.invoice, 3));
    const shown = await invoiceOf(stack, team.token, team.invoice.id);
    expect(shown.dunning_attempts).toEqual([
      {
        attempt: 1,
        scheduled_for: new Date(team.invoice.due_at!.getTime() + DAY_MS).toISOString(),
        attempted_at: dayAfterDue(team.invoice, 1).toISOString(),
        outcome: 'reminded',
        failure_reason: null,
      },
      {
        attempt: 2,
        scheduled_for: new Date(team.invoice.due_at!.getTime() + 3 * DAY_MS).toISOString(),
        attempted_at: dayAfterDue(team.invoice, 3).toISOString(),
        outcome: 'reminded',
        failure_reason: null,
      },
    ]);
    expect(shown.next_attempt_at).toBe(new Date(team.invoice.due_at!.getTime() + 5 * DAY_MS).toISOString());
    await markPaid(stack, operator, team.invoice.id);
    expect((await invoiceOf(stack, team.token, team.invoice.id)).next_attempt_at).toBeNull();
  });

  it('after days the sweep missed, make only the latest due attempt: one mail, no burst', async () => {
    const team = await overdueTransferTeam();
    const result = await sweepAt(stack, dayAfterDue(team.invoice, 6));
    expect(result.dunning?.attempts).toBeGreaterThanOrEqual(1);
    expect((await attemptsOf(stack, team.invoice.id)).map((row) => row.attempt)).toEqual([3]);
    expect(await mailsTo(stack, team.user.email, reminder(team.number))).toHaveLength(1);
    await sweepAt(stack, dayAfterDue(team.invoice, 7));
    expect((await attemptsOf(stack, team.invoice.id)).map((row) => row.attempt)).toEqual([3, 4]);
    expect(await mailsTo(stack, team.user.email, reminder(team.number))).toHaveLength(2);
    await markPaid(stack, operator, team.invoice.id);
  });

  it('stop once the invoice is paid', async () => {
    const team = await overdueTransferTeam();
    await sweepAt(stack, dayAfterDue(team.invoice, 1));
    expect(await mailsTo(stack, team.user.email, reminder(team.number))).toHaveLength(1);
    const paid = await markPaid(stack, operator, team.invoice.id);
    expect(paid.body.data.subscription.status).toBe('active');
    for (const days of [3, 5, 7, 10]) await sweepAt(stack, dayAfterDue(team.invoice, days));
    expect((await attemptsOf(stack, team.invoice.id)).map((row) => row.attempt)).toEqual([1]);
    expect(await mailsTo(stack, team.user.email, reminder(team.number))).toHaveLength(1);
    expect(await mailsTo(stack, team.user.email, withdrawn)).toEqual([]);
    expect(await (await subscriptionOf(stack, team.token)).status).toBe('active');
  });

  it('make one attempt and one mail when two sweeps run at once', async () => {
    const team = await overdueTransferTeam();
    // the sweeps stop at the invoice's row lock, which claiming an attempt takes: all are in flight together
    const lockInvoice = (trx: Knex.Transaction) => trx('invoices').where({ id: team.invoice.id }).forNoKeyUpdate().first('id');
    const sweeps = (count: number, days: number) =>
      overlapped(
        stack.ctx.db,
        lockInvoice,
        count,
        `${count} sweeps`,
        () => Promise.all(Array.from({ length: count }, () => sweepAt(stack, dayAfterDue(team.invoice, days)))),
        { applicationName: APPLICATION_NAME },
      );
    expect((await sweeps(2, 1)).waited).toBe(2);
    expect(await attemptsOf(stack, team.invoice.id)).toHaveLength(1);
    expect(await mailsTo(stack, team.user.email, reminder(team.number))).toHaveLength(1);
    expect((await sweeps(3, 3)).waited).toBe(3);
    expect((await attemptsOf(stack, team.invoice.id)).map((row) => row.attempt)).toEqual([1, 2]);
    expect(await mailsTo(stack, team.user.email, reminder(team.number))).toHaveLength(2);
    await markPaid(stack, operator, team.invoice.id);
  });
});

describe('the end of dunning', () => {
  it('withdraws the plan BILLING_UNPAID_AFTER_DAYS after the due date with one last mail; paying restores it', async () => {
    const team = await overdueTransferTeam();
    await sweepAt(stack, dayAfterDue(team.invoice, 7));
    await sweepAt(stack, dayAfterDue(team.invoice, 9));
    expect(await (await subscriptionOf(stack, team.token)).status).toBe('past_due');
    const result = await sweepAt(stack, dayAfterDue(team.invoice, 10));
    expect(result.unpaid).toBeGreaterThanOrEqual(1);
    await sweepAt(stack, dayAfterDue(team.invoice, 11));
    expect(await (await subscriptionOf(stack, team.token)).status).toBe('unpaid');
    expect(await entitlementsRow(stack, team.user.teamId)).toBeUndefined();

    const last = await mailsTo(stack, team.user.email, withdrawn);
    expect(last).toHaveLength(1);
    expect(last[0]!.subject).toBe(`Your Berth plan's limits were withdrawn: invoice ${team.number} is unpaid`);
    expect(last[0]!.text).toContain(
      `The team "${team.user.teamName}" has not paid invoice ${team.number} (€18.00), so its plan's limits were withdrawn today.`,
    );
    expect(last[0]!.text).toContain(`Pay by bank transfer with the reference ${team.number}`);
    expect(await mailsTo(stack, team.billing.email, withdrawn)).toHaveLength(1);
    // The unpaid subscription is dunned no more: the reminder of day 7 was the last.
    expect((await attemptsOf(stack, team.invoice.id)).map((row) => row.attempt)).toEqual([4]);
    expect(await mailsTo(stack, team.user.email, reminder(team.number))).toHaveLength(1);
    expect((await invoiceOf(stack, team.token, team.invoice.id)).next_attempt_at).toBeNull();

    expect((await markPaid(stack, operator, team.invoice.id)).body.data.subscription.status).toBe('active');
    expect(await entitlementsRow(stack, team.user.teamId)).toMatchObject({ plan: 'starter' });
  });
});
