import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvoiceRow } from '../../../shared/domains/billing/rows.ts';
import { sweepAt } from '../../helpers/billing-lifecycle.ts';
import { choosePlan, entitlementsRow, invoiceRow, signedInOwner, subscriptionOf } from '../../helpers/billing.ts';
import { attemptsOf, day, dayAfterDue, mailsTo, renewalInvoice } from '../../helpers/dunning.ts';
import { overlapped, withApplicationName } from '../../helpers/lock-barrier.ts';
import { testDatabaseUrl } from '../../helpers/services.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { deliverStripeEvent, stripeEvent, succeededIntent } from '../../helpers/stripe-events.ts';
import { startStripeStandIn, type StripeStandIn } from '../../helpers/stripe-stand-in.ts';
import { call } from '../../helpers/team-members.ts';

/**
 * Dunning with the Stripe provider, against the local stand-in for the Stripe endpoints Berth calls
 * (test/helpers/stripe-stand-in.ts: it is not Stripe; its confirmations succeed or decline as a test
 * switches them). An overdue renewal invoice's PaymentIntent is confirmed off-session with the
 * customer's saved card on the days of the schedule (1,3,5,7); a decline is mailed with the day of
 * the next try and raises `invoice.payment_failed`; a success pays the invoice. Tax at 20 %: starter
 * is 15.00 + 3.00 = 18.00 EUR.
 */
const SECRET_KEY = `sk_test_berth_${randomBytes(8).toString('hex')}`;
const WEBHOOK_SECRET = `whsec_${randomBytes(16).toString('hex')}`;
const DAY_MS = 86_400_000;

let stack: Stack;
const APPLICATION_NAME = 'berth-test-dunning-stripe';
let standIn: StripeStandIn;

beforeAll(async () => {
  standIn = await startStripeStandIn(SECRET_KEY);
  stack = await startStack({
    env: {
      // named in pg_stat_activity: other files' sweeps (unscoped) may queue behind the test's lock too, and are not counted
      DATABASE_URL: withApplicationName(testDatabaseUrl, APPLICATION_NAME),
      BILLING_TAX_RATE_BPS: '2000',
      BILLING_INVOICE_DUE_DAYS: '1',
      BILLING_UNPAID_AFTER_DAYS: '10',
      BILLING_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: standIn.url,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    },
  });
});
afterAll(async () => {
  await stack?.stop();
  await standIn?.stop();
});

/** Posts a PaymentIntent event as Stripe does; the webhook's outcome (it must answer 200). */
async function webhookOutcome(type: string, intent: Record<string, unknown>): Promise<string> {
  const reply = await deliverStripeEvent(stack, stripeEvent(type, intent));
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.data.outcome as string;
}

/**
 * A starter subscription paid by card (its first PaymentIntent succeeded), its renewal invoice open
 * with its own PaymentIntent, and a webhook endpoint listening to invoice events.
 */
async function overdueCardTeam(card: string | null) {
  const owner = await signedInOwner(stack);
  expect((await call(stack.client(), 'POST', '/v1/webhooks', owner.token, { url: 'http://127.0.0.1:9/hook', event_types: ['invoice.*'] })).status).toBe(201);
  const chosen = await choosePlan(stack, owner.token, 'starter');
  expect(chosen.status, JSON.stringify(chosen.body)).toBe(201);
  expect(await webhookOutcome('payment_intent.succeeded', succeededIntent(standIn.objects.get(chosen.body.data.payment.stripe.payment_intent)!))).toBe('paid');
  const customer = ((await stack.ctx.db('stripe_customers').where({ team_id: owner.user.teamId }).first()) as { customer_id: string }).customer_id;
  standIn.saveCard(customer, card);
  const invoice = await renewalInvoice(stack, chosen.body.data.subscription.id as number);
  expect(invoice.provider_ref).toMatch(/^pi_/);
  return { ...owner, customer, invoice, number: invoice.number! };
}

const confirmsOf = (invoice: InvoiceRow) => standIn.received.filter((request) => request.path === `/v1/payment_intents/${invoice.provider_ref}/confirm`);
const failedMail = (number: string) => new RegExp(`^Payment failed for invoice ${number}: €18\\.00$`);
const failedEvents = async (teamId: number) =>
  ((await stack.ctx.db('webhook_events').where({ team_id: teamId, type: 'invoice.payment_failed' }).select('body')) as Array<{ body: string }>).map(
    (row) => JSON.parse(row.body).data,
  );

describe('a retried card charge', () => {
  it('declined, is mailed with the next try and raises invoice.payment_failed; the retry that succeeds pays the invoice and restores the subscription', async () => {
    const team = await overdueCardTeam('pm_card_visa');
    standIn.chargesWill({ decline: 'Your card was declined.' });
    await sweepAt(stack, dayAfterDue(team.invoice, 1));
    const [first] = await attemptsOf(stack, team.invoice.id);
    expect(first).toMatchObject({ attempt: 1, outcome: 'charge_failed', failure_reason: 'Your card was declined.' });
    expect(await invoiceRow(stack, team.invoice.id)).toMatchObject({ status: 'open', payment_failure: 'Your card was declined.' });
    expect(await (await subscriptionOf(stack, team.token)).status).toBe('past_due');

    const confirms = confirmsOf(team.invoice);
    expect(
      confirms.map((request) => [request.method, request.idempotencyKey, request.authorized, request.params.payment_method, request.params.off_session]),
    ).toEqual([['POST', `berth-invoice-${team.invoice.id}-dunning-1`, true, 'pm_card_visa', 'true']]);
    expect(standIn.received.some((request) => request.method === 'GET' && request.path === `/v1/customers/${team.customer}`)).toBe(true);

    const mails = await mailsTo(stack, team.user.email, failedMail(team.number));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`We could not charge €18.00 for invoice ${team.number} of the team "${team.user.teamName}": Your card was declined.`);
    expect(mails[0]!.text).toContain(`We will retry on ${day(new Date(team.invoice.due_at!.getTime() + 3 * DAY_MS))}.`);
    expect(mails[0]!.text).toContain(`If it is still unpaid on ${day(new Date(team.invoice.due_at!.getTime() + 10 * DAY_MS))}`);
    expect(JSON.stringify(mails)).not.toContain(SECRET_KEY);
    expect(JSON.stringify(mails)).not.toContain('_secret_');

    expect(await failedEvents(team.user.teamId)).toEqual([
      {
        invoice: {
          id: team.invoice.id,
          number: team.number,
          status: 'open',
          currency: 'EUR',
          total_minor: 1800,
          subscription_id: team.invoice.subscription_id,
        },
        attempt: { number: 1, reason: 'Your card was declined.', next_attempt_at: new Date(team.invoice.due_at!.getTime() + 3 * DAY_MS).toISOString() },
      },
    ]);

    standIn.chargesWill({ succeed: true });
    const retried = await sweepAt(stack, dayAfterDue(team.invoice, 3));
    expect(retried.dunning?.paid).toBeGreaterThanOrEqual(1);
    expect((await attemptsOf(stack, team.invoice.id)).map((row) => [row.attempt, row.outcome])).toEqual([
      [1, 'charge_failed'],
      [2, 'charge_succeeded'],
    ]);
    expect(await invoiceRow(stack, team.invoice.id)).toMatchObject({ status: 'paid', payment_reference: team.invoice.provider_ref });
    expect(await (await subscriptionOf(stack, team.token)).status).toBe('active');
    expect(await entitlementsRow(stack, team.user.teamId)).toMatchObject({ plan: 'starter', max_sites: 1 });

    // Stripe's webhook for the same payment arrives after: nothing is done twice.
    expect(await webhookOutcome('payment_intent.succeeded', succeededIntent(standIn.objects.get(team.invoice.provider_ref!)!))).toBe('ignored');
    for (const days of [5, 7]) await sweepAt(stack, dayAfterDue(team.invoice, days));
    expect(await attemptsOf(stack, team.invoice.id)).toHaveLength(2);
    expect(confirmsOf(team.invoice)).toHaveLength(2);
    expect(await mailsTo(stack, team.user.email, failedMail(team.number))).toHaveLength(1);
    expect(await failedEvents(team.user.teamId)).toHaveLength(1);
    const shown = (await call(stack.client(), 'GET', `/v1/billing/invoices/${team.invoice.id}`, team.token)).body.data;
    expect(shown).toMatchObject({ status: 'paid', next_attempt_at: null });
    expect(shown.dunning_attempts.map((attempt: { outcome: string }) => attempt.outcome)).toEqual(['charge_failed', 'charge_succeeded']);
  });

  it('without a saved card fails with "no saved card" and charges nothing', async () => {
    const team = await overdueCardTeam(null);
    await sweepAt(stack, dayAfterDue(team.invoice, 1));
    expect(await attemptsOf(stack, team.invoice.id)).toEqual([
      expect.objectContaining({ attempt: 1, outcome: 'charge_failed', failure_reason: 'no saved card' }),
    ]);
    expect(confirmsOf(team.invoice)).toEqual([]);
    const [mail] = await mailsTo(stack, team.user.email, failedMail(team.number));
    expect(mail!.text).toContain(`for invoice ${team.number} of the team "${team.user.teamName}": no saved card.`);
    expect((await failedEvents(team.user.teamId))[0].attempt).toMatchObject({ number: 1, reason: 'no saved card' });

    // The last attempt says no retry comes.
    await sweepAt(stack, dayAfterDue(team.invoice, 7));
    const mails = await mailsTo(stack, team.user.email, failedMail(team.number));
    expect(mails).toHaveLength(2);
    expect(mails[1]!.text).toContain('We will not retry the charge: pay the invoice in the panel.');
  });

  it("that Stripe fails to answer is a failed attempt in Stripe's words, without the key", async () => {
    const team = await overdueCardTeam('pm_card_visa');
    standIn.failNext(1);
    await sweepAt(stack, dayAfterDue(team.invoice, 1));
    const [attempt] = await attemptsOf(stack, team.invoice.id);
    expect(attempt).toMatchObject({ outcome: 'charge_failed', failure_reason: expect.stringContaining('An unknown error occurred') });
    expect(attempt!.failure_reason).not.toContain(SECRET_KEY);
    const [mail] = await mailsTo(stack, team.user.email, failedMail(team.number));
    expect(mail!.text).toContain('An unknown error occurred');
    expect(mail!.text).not.toContain(SECRET_KEY);
  });

  it('is confirmed once when two sweeps run at once', async () => {
    const team = await overdueCardTeam('pm_card_visa');
    standIn.chargesWill({ decline: 'Your card has insufficient funds.' });
    // both sweeps stop at the invoice's row lock, which claiming the attempt takes: they are in flight together
    const { waited } = await overlapped(
      stack.ctx.db,
      (trx) => trx('invoices').where({ id: team.invoice.id }).forNoKeyUpdate().first('id'),
      2,
      'both sweeps',
      () => Promise.all([sweepAt(stack, dayAfterDue(team.invoice, 1)), sweepAt(stack, dayAfterDue(team.invoice, 1))]),
      { applicationName: APPLICATION_NAME },
    );
    expect(waited).toBe(2);
    expect(await attemptsOf(stack, team.invoice.id)).toHaveLength(1);
    expect(confirmsOf(team.invoice)).toHaveLength(1);
    expect(await mailsTo(stack, team.user.email, failedMail(team.number))).toHaveLength(1);
    expect(await failedEvents(team.user.teamId)).toHaveLength(1);
    standIn.chargesWill({ succeed: true });
  });
});
