import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payInvoice } from '../../../shared/domains/billing/invoice-payments.ts';
import { sweepSubscriptions } from '../../../shared/domains/billing/sweep-subscriptions.ts';
import { sweepAt } from '../../helpers/billing-lifecycle.ts';
import { activeTeam, choosePlan, entitlementsRow, markPaid, signedInOperator, signedInOwner } from '../../helpers/billing.ts';
import { accessTokenOf } from '../../helpers/factories.ts';
import { overlapped } from '../../helpers/lock-barrier.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { addMember, call, failedFields } from '../../helpers/team-members.ts';
import { until } from '../../helpers/until.ts';

/**
 * Subscriptions with the manual provider: choosing a plan opens the first invoice (incomplete), an
 * operator marks it paid (active, the plan's entitlements written), cancelling at period end, the
 * period sweep ending, renewing and dunning. Tax at 20 % (BILLING_TAX_RATE_BPS=2000).
 */
let stack: Stack;
let operator = '';
const quiet = { info: () => undefined };
const DAY_MS = 86_400_000;

beforeAll(async () => {
  stack = await startStack({
    workers: false,
    env: { BILLING_TAX_RATE_BPS: '2000', BILLING_INVOICE_DUE_DAYS: '14', BILLING_UNPAID_AFTER_DAYS: '7', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
  });
  operator = (await signedInOperator(stack)).token;
});
afterAll(async () => {
  await stack?.stop();
});

const settings = () => stack.ctx.config.billing;

describe('choosing a plan', () => {
  it('makes an incomplete subscription and its first invoice, open and numbered, with a tax line', async () => {
    const { user, token } = await signedInOwner(stack);
    const reply = await choosePlan(stack, token, 'business');
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.headers.get('location')).toBe('/v1/billing/subscription');
    const { subscription, invoice, payment } = reply.body.data;
    expect(subscription).toMatchObject({
      status: 'incomplete',
      provider: 'manual',
      cancel_at_period_end: false,
      plan: { code: 'business', price_minor: 4900, currency: 'EUR' },
    });
    const start = new Date(subscription.current_period_start);
    const end = new Date(subscription.current_period_end);
    expect(end.getUTCMonth()).toBe((start.getUTCMonth() + 1) % 12);
    expect(invoice).toMatchObject({
      status: 'open',
      currency: 'EUR',
      subtotal_minor: 4900,
      tax_minor: 980,
      total_minor: 5880,
      subscription_id: subscription.id,
      paid_at: null,
    });
    expect(invoice.number).toMatch(new RegExp(`^BTH-${new Date().getUTCFullYear()}-\\d{6}$`));
    expect(invoice.lines).toEqual([
      expect.objectContaining({ kind: 'item', quantity: 1, unit_amount_minor: 4900, amount_minor: 4900, tax_rate_bps: null }),
      expect.objectContaining({ kind: 'tax', description: 'Tax 20 %', amount_minor: 980, tax_rate_bps: 2000, taxable_minor: 4900 }),
    ]);
    expect(new Date(invoice.due_at).getTime() - new Date(invoice.finalized_at).getTime()).toBe(14 * DAY_MS);
    expect(payment).toEqual({ outcome: 'pending', instructions: expect.stringContaining(invoice.number) });
    // No entitlements until it is paid: site creation still answers 402.
    expect(await entitlementsRow(stack, user.teamId)).toBeUndefined();
    expect((await call(stack.client(), 'GET', '/v1/billing/subscription', token)).body.data.status).toBe('incomplete');
  });

  it('refuses a second subscription (409 subscription_exists) and a plan that does not exist or is withdrawn (422)', async () => {
    const { token } = await signedInOwner(stack);
    expect((await choosePlan(stack, token, 'starter')).status).toBe(201);
    const again = await choosePlan(stack, token, 'agency');
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'CONFLICT', details: { reason: 'subscription_exists' } });

    const other = await signedInOwner(stack);
    const unknown = await choosePlan(stack, other.token, 'platinum');
    expect(unknown.status).toBe(422);
    expect(failedFields(unknown)).toEqual(['plan']);
    const missing = await call(stack.client(), 'POST', '/v1/billing/subscription', other.token, {});
    expect(failedFields(missing)).toEqual(['plan']);
    const extra = await call(stack.client(), 'POST', '/v1/billing/subscription', other.token, { plan: 'starter', coupon: 'x' });
    expect(failedFields(extra)).toEqual(['coupon']);
    const withdrawn = await call(stack.client(), 'POST', '/v1/admin/billing/plans', operator, {
      code: `old-${Date.now()}`,
      name: 'Old',
      price_minor: 100,
      currency: 'EUR',
      interval: 'month',
      max_sites: 1,
      max_disk_bytes: 1,
      environment_memory_bytes: 256 * 1024 ** 2,
      environment_cpu_millicores: 500,
      backups_scheduled_keep: 1,
      backups_manual_keep: 1,
      active: false,
    });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(201);
    const refused = await choosePlan(stack, other.token, withdrawn.body.data.code);
    expect(refused.status).toBe(422);
    expect(refused.body.error.details.fields[0].message).toMatch(/no longer offered/);
    expect((await call(stack.client(), 'GET', '/v1/billing/subscription', other.token)).status).toBe(404);
  });

  it('makes one subscription when a team chooses twice at once', async () => {
    const { user, token } = await signedInOwner(stack);
    // both choices stop at the team's row lock, which subscribing takes first: they are in flight together
    const { result: replies, waited } = await overlapped(
      stack.ctx.db,
      (trx) => trx('teams').where({ id: user.teamId }).forNoKeyUpdate().first('id'),
      2,
      'both choices',
      () => Promise.all([choosePlan(stack, token, 'starter'), choosePlan(stack, token, 'business')]),
    );
    expect(waited).toBe(2);
    expect(replies.map((reply) => reply.status).sort()).toEqual([201, 409]);
    expect(await stack.ctx.db('subscriptions').where({ team_id: user.teamId })).toHaveLength(1);
  });
});

describe('an operator marks the first invoice paid', () => {
  it("activates the subscription and writes the plan's entitlements in the same transaction", async () => {
    const { user, token } = await signedInOwner(stack);
    const chosen = await choosePlan(stack, token, 'business');
    const invoiceId = chosen.body.data.invoice.id;
    const paid = await markPaid(stack, operator, invoiceId, 'SEPA 2026-11-25 #81');
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.data.invoice).toMatchObject({ id: invoiceId, status: 'paid', paid_at: expect.any(String) });
    expect(paid.body.data.subscription).toMatchObject({ status: 'active', plan: { code: 'business' } });
    expect(await entitlementsRow(stack, user.teamId)).toMatchObject({
      plan: 'business',
      max_sites: 5,
      max_disk_bytes: 50 * 1024 ** 3,
      environment_memory_bytes: 1024 ** 3,
      environment_cpu_millicores: 2000,
      backups_scheduled_keep: 30,
      backups_manual_keep: 20,
    });
    const entitlements = await call(stack.client(), 'GET', '/v1/entitlements', token);
    expect(entitlements.body.data).toMatchObject({ plan: 'business', max_sites: 5 });
    expect((await stack.ctx.db('invoices').where({ id: invoiceId }).first()).payment_reference).toBe('SEPA 2026-11-25 #81');

    const twice = await markPaid(stack, operator, invoiceId);
    expect(twice.status).toBe(409);
    expect(twice.body.error.details.reason).toBe('invoice_not_open');
  });

  it('races a cancellation without deadlock or error: each invoice ends either paid (active) or void (canceled)', async () => {
    const teams = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const owner = await signedInOwner(stack);
        return { ...owner, invoiceId: (await choosePlan(stack, owner.token, 'starter')).body.data.invoice.id as number };
      }),
    );
    const replies = await Promise.all(
      teams.flatMap((team) => [markPaid(stack, operator, team.invoiceId), call(stack.client(), 'DELETE', '/v1/billing/subscription', team.token)]),
    );
    expect(
      replies.every((reply) => reply.status === 200 || reply.status === 409),
      JSON.stringify(replies.map((reply) => reply.status)),
    ).toBe(true);
    for (const team of teams) {
      const invoice = (await call(stack.client(), 'GET', `/v1/billing/invoices/${team.invoiceId}`, team.token)).body.data;
      const subscription = (await call(stack.client(), 'GET', '/v1/billing/subscription', team.token)).body.data;
      if (invoice.status === 'paid') expect(subscription).toMatchObject({ status: 'active', cancel_at_period_end: true });
      else expect([invoice.status, subscription.status]).toEqual(['void', 'canceled']);
    }
  });

  it('is for operators only: the team itself gets 404, as for an unknown path, and the invoice stays open', async () => {
    const { token } = await signedInOwner(stack);
    const invoiceId = (await choosePlan(stack, token, 'starter')).body.data.invoice.id;
    expect((await markPaid(stack, token, invoiceId)).status).toBe(404);
    expect((await call(stack.client(), 'GET', `/v1/billing/invoices/${invoiceId}`, token)).body.data.status).toBe('open');
    expect((await markPaid(stack, operator, 999_999_999)).status).toBe(404);
    expect((await markPaid(stack, operator, invoiceId, '')).status).toBe(422);
  });

  it('voids and writes off only open invoices', async () => {
    const { token } = await signedInOwner(stack);
    const invoiceId = (await choosePlan(stack, token, 'starter')).body.data.invoice.id;
    const action = (what: string, as = operator) => call(stack.client(), 'POST', `/v1/billing/invoices/${invoiceId}/${what}`, as);
    expect((await action('void', token)).status).toBe(404);
    expect((await action('mark-uncollectible')).body.data.status).toBe('uncollectible');
    expect((await action('mark-uncollectible')).status).toBe(409);
    expect((await action('void')).body.data).toMatchObject({ status: 'void', voided_at: expect.any(String) });
    expect((await markPaid(stack, operator, invoiceId)).body.error.details.reason).toBe('invoice_not_open');
  });
});

describe('permissions and tenancy', () => {
  it("lets the billing role read and manage, refuses developers (403), and hides other teams' invoices (404)", async () => {
    const team = await activeTeam(stack, operator, 'starter');
    const teamRef = { teamId: team.user.teamId, teamName: team.user.teamName };
    const billing = await accessTokenOf(stack.client(), await addMember(stack.ctx.db, teamRef, 'billing'));
    const developer = await accessTokenOf(stack.client(), await addMember(stack.ctx.db, teamRef, 'developer'));
    expect((await call(stack.client(), 'GET', '/v1/billing/invoices', billing)).body.data.map((invoice: { id: number }) => invoice.id)).toEqual([
      team.invoiceId,
    ]);
    expect((await call(stack.client(), 'GET', '/v1/billing/subscription', billing)).body.data.status).toBe('active');
    const denied = await call(stack.client(), 'GET', '/v1/billing/invoices', developer);
    expect(denied.status).toBe(403);
    expect(denied.body.error.details.permission).toBe('billing:read');
    expect((await call(stack.client(), 'GET', '/v1/billing/plans', developer)).status).toBe(403);
    expect((await call(stack.client(), 'DELETE', '/v1/billing/subscription', developer)).body.error.details.permission).toBe('billing:manage');

    const stranger = await signedInOwner(stack);
    expect((await call(stack.client(), 'GET', `/v1/billing/invoices/${team.invoiceId}`, stranger.token)).status).toBe(404);
    expect((await call(stack.client(), 'GET', '/v1/billing/invoices', stranger.token)).body).toMatchObject({ data: [], pagination: { total: 0 } });
    expect((await call(stack.client(), 'GET', '/v1/billing/subscription', stranger.token)).status).toBe(404);
    expect((await call(stack.client(), 'GET', '/v1/billing/invoices/abc', team.token)).status).toBe(404);
    expect((await call(stack.client(), 'GET', '/v1/billing/invoices?status=draft', team.token)).status).toBe(422);
  });

  it("records the billing changes in the team's audit trail", async () => {
    const { token } = await signedInOwner(stack);
    await choosePlan(stack, token, 'starter');
    await call(stack.client(), 'DELETE', '/v1/billing/subscription', token);
    const actions = (await call(stack.client(), 'GET', '/v1/activity', token)).body.data.map((entry: { action: string }) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['subscription.created', 'subscription.canceled']));
  });
});

describe('webhook events', () => {
  it('are written to the outbox with each change: subscription created, invoice finalized and paid, subscription updated and canceled', async () => {
    const { user, token } = await signedInOwner(stack);
    expect(
      (await call(stack.client(), 'POST', '/v1/webhooks', token, { url: 'http://127.0.0.1:9/hook', event_types: ['invoice.*', 'subscription.*'] })).status,
    ).toBe(201);
    const chosen = (await choosePlan(stack, token, 'business')).body.data;
    await markPaid(stack, operator, chosen.invoice.id);
    await call(stack.client(), 'DELETE', '/v1/billing/subscription', token);
    // Events of one transaction share its timestamp: compared as a set, then by what they say.
    const events = (await stack.ctx.db('webhook_events').where({ team_id: user.teamId }).select('type', 'body')) as Array<{ type: string; body: string }>;
    expect(events.map((event) => event.type).sort()).toEqual([
      'invoice.finalized',
      'invoice.paid',
      'subscription.created',
      'subscription.updated',
      'subscription.updated',
    ]);
    const data = (type: string) => events.filter((event) => event.type === type).map((event) => JSON.parse(event.body).data);
    expect(data('invoice.finalized')).toEqual([
      {
        invoice: {
          id: chosen.invoice.id,
          number: chosen.invoice.number,
          status: 'open',
          currency: 'EUR',
          total_minor: 5880,
          subscription_id: chosen.subscription.id,
        },
      },
    ]);
    expect(data('invoice.paid')[0].invoice.status).toBe('paid');
    expect(data('subscription.created')[0].subscription).toMatchObject({ status: 'incomplete', plan: 'business' });
    expect(
      data('subscription.updated')
        .map((entry) => entry.subscription.cancel_at_period_end)
        .sort(),
    ).toEqual([false, true]);
    expect(data('subscription.updated').every((entry) => entry.subscription.status === 'active')).toBe(true);
  });
});

describe('cancelling', () => {
  it('an incomplete subscription ends at once, its invoice voided; the team may choose again', async () => {
    const { token } = await signedInOwner(stack);
    const first = (await choosePlan(stack, token, 'starter')).body.data;
    const canceled = await call(stack.client(), 'DELETE', '/v1/billing/subscription', token);
    expect(canceled.status).toBe(200);
    expect(canceled.body.data).toMatchObject({ status: 'canceled', ended_at: expect.any(String) });
    expect((await call(stack.client(), 'GET', `/v1/billing/invoices/${first.invoice.id}`, token)).body.data.status).toBe('void');
    const again = await call(stack.client(), 'DELETE', '/v1/billing/subscription', token);
    expect(again.status).toBe(409);
    expect(again.body.error.details.reason).toBe('subscription_ended');
    const second = await choosePlan(stack, token, 'agency');
    expect(second.status).toBe(201);
    expect(second.body.data.subscription).toMatchObject({
      id: first.subscription.id,
      status: 'incomplete',
      plan: { code: 'agency' },
      ended_at: null,
      canceled_at: null,
    });
  });

  it('an incomplete one leaves entitlements an operator set directly alone', async () => {
    const { user, token } = await signedInOwner(stack);
    const set = await call(stack.client(), 'PUT', `/v1/admin/teams/${user.teamId}/entitlements`, operator, {
      plan: 'custom',
      max_sites: 3,
      max_disk_bytes: 30 * 1024 ** 3,
    });
    expect(set.status).toBe(200);
    await choosePlan(stack, token, 'starter');
    expect((await call(stack.client(), 'DELETE', '/v1/billing/subscription', token)).body.data.status).toBe('canceled');
    expect(await entitlementsRow(stack, user.teamId)).toMatchObject({ plan: 'custom', max_sites: 3 });
  });

  it('an active one keeps its entitlements until the period ends; the sweep then ends it and site creation is refused again', async () => {
    const team = await activeTeam(stack, operator, 'business');
    const canceling = await call(stack.client(), 'DELETE', '/v1/billing/subscription', team.token);
    expect(canceling.body.data).toMatchObject({ status: 'active', cancel_at_period_end: true, canceled_at: expect.any(String), ended_at: null });
    expect(await sweepSubscriptions(stack.ctx, settings(), quiet)).toMatchObject({ ended: 0 });
    expect(await entitlementsRow(stack, team.user.teamId)).toMatchObject({ plan: 'business' });

    const periodEnd = new Date(Date.now() - 1000);
    await stack.ctx
      .db('subscriptions')
      .where({ id: team.subscriptionId })
      .update({ current_period_start: new Date(periodEnd.getTime() - 30 * DAY_MS), current_period_end: periodEnd });
    expect((await sweepSubscriptions(stack.ctx, settings(), quiet)).ended).toBeGreaterThanOrEqual(1);
    const ended = (await call(stack.client(), 'GET', '/v1/billing/subscription', team.token)).body.data;
    expect(ended).toMatchObject({ status: 'canceled', ended_at: periodEnd.toISOString() });
    expect(await entitlementsRow(stack, team.user.teamId)).toBeUndefined();
    const site = await call(stack.client(), 'POST', '/v1/sites', team.token, {
      name: 'After the end',
      php_version: '8.2',
      wordpress: { title: 'x', admin_user: 'admin', admin_email: 'a@example.test' },
    });
    expect(site.status).toBe(402);
    expect(site.body.error.details.limit).toBe('plan');
    // No invoice for a period that was not renewed.
    expect((await call(stack.client(), 'GET', '/v1/billing/invoices', team.token)).body.pagination.total).toBe(1);
  });
});

describe('the period sweep', () => {
  it('renews a period that is over with a new invoice; overdue makes it past_due, then unpaid without entitlements; paying restores it', async () => {
    const team = await activeTeam(stack, operator, 'starter');
    const periodEnd = new Date(Date.now() - 60_000);
    await stack.ctx
      .db('subscriptions')
      .where({ id: team.subscriptionId })
      .update({ current_period_start: new Date(periodEnd.getTime() - 30 * DAY_MS), current_period_end: periodEnd });
    expect((await sweepSubscriptions(stack.ctx, settings(), quiet)).renewed).toBeGreaterThanOrEqual(1);
    const renewed = (await call(stack.client(), 'GET', '/v1/billing/subscription', team.token)).body.data;
    expect(renewed).toMatchObject({ status: 'active', current_period_start: periodEnd.toISOString() });
    expect(new Date(renewed.current_period_end).getTime()).toBeGreaterThan(Date.now());
    const invoices = (await call(stack.client(), 'GET', '/v1/billing/invoices', team.token)).body.data;
    expect(invoices).toHaveLength(2);
    const renewal = invoices[0];
    expect(renewal).toMatchObject({ status: 'open', total_minor: 1800, period_start: periodEnd.toISOString() });
    expect(await entitlementsRow(stack, team.user.teamId)).toMatchObject({ plan: 'starter', max_sites: 1 });
    // Idempotent: a second sweep renews nothing more.
    await sweepSubscriptions(stack.ctx, settings(), quiet);
    expect((await call(stack.client(), 'GET', '/v1/billing/invoices', team.token)).body.pagination.total).toBe(2);

    // Due date passed: past_due, entitlements kept.
    await stack.ctx
      .db('invoices')
      .where({ id: renewal.id })
      .update({ due_at: new Date(Date.now() - DAY_MS) });
    await sweepSubscriptions(stack.ctx, settings(), quiet);
    expect((await call(stack.client(), 'GET', '/v1/billing/subscription', team.token)).body.data.status).toBe('past_due');
    expect(await entitlementsRow(stack, team.user.teamId)).toMatchObject({ plan: 'starter' });

    // Still open BILLING_UNPAID_AFTER_DAYS (7) after: unpaid, entitlements withdrawn.
    await stack.ctx
      .db('invoices')
      .where({ id: renewal.id })
      .update({ due_at: new Date(Date.now() - 8 * DAY_MS) });
    await sweepSubscriptions(stack.ctx, settings(), quiet);
    expect((await call(stack.client(), 'GET', '/v1/billing/subscription', team.token)).body.data.status).toBe('unpaid');
    expect(await entitlementsRow(stack, team.user.teamId)).toBeUndefined();

    const paid = await markPaid(stack, operator, renewal.id);
    expect(paid.body.data.subscription.status).toBe('active');
    expect(await entitlementsRow(stack, team.user.teamId)).toMatchObject({ plan: 'starter' });
  });

  it("stays unpaid while another period's invoice is open; paying the last one restores it", async () => {
    const team = await activeTeam(stack, operator, 'starter');
    const now = Date.now();
    await stack.ctx
      .db('subscriptions')
      .where({ id: team.subscriptionId })
      .update({
        billing_anchor: new Date(now - 70 * DAY_MS),
        current_period_start: new Date(now - 70 * DAY_MS),
        current_period_end: new Date(now - 40 * DAY_MS),
      });
    await sweepSubscriptions(stack.ctx, settings(), quiet);
    const open = (await call(stack.client(), 'GET', '/v1/billing/invoices?status=open', team.token)).body.data as Array<{ id: number }>;
    expect(open).toHaveLength(2);
    await stack.ctx
      .db('invoices')
      .whereIn(
        'id',
        open.map((invoice) => invoice.id),
      )
      .update({ due_at: new Date(now - 30 * DAY_MS) });
    await sweepSubscriptions(stack.ctx, settings(), quiet);
    expect((await call(stack.client(), 'GET', '/v1/billing/subscription', team.token)).body.data.status).toBe('unpaid');
    expect((await markPaid(stack, operator, open[1]!.id)).body.data.subscription.status).toBe('unpaid');
    expect(await entitlementsRow(stack, team.user.teamId)).toBeUndefined();
    expect((await markPaid(stack, operator, open[0]!.id)).body.data.subscription.status).toBe('active');
    expect(await entitlementsRow(stack, team.user.teamId)).toMatchObject({ plan: 'starter' });
  });

  it("writes the plan's limits again at the renewal, so an operator's change to the plan reaches its subscribers", async () => {
    const created = await call(stack.client(), 'POST', '/v1/admin/billing/plans', operator, {
      code: `solo-${Date.now()}`,
      name: 'Solo',
      price_minor: 900,
      currency: 'EUR',
      interval: 'month',
      max_sites: 2,
      max_disk_bytes: 20 * 1024 ** 3,
      environment_memory_bytes: 512 * 1024 ** 2,
      environment_cpu_millicores: 1000,
      backups_scheduled_keep: 7,
      backups_manual_keep: 5,
    });
    const team = await activeTeam(stack, operator, created.body.data.code);
    await call(stack.client(), 'PATCH', `/v1/admin/billing/plans/${created.body.data.id}`, operator, { max_sites: 4 });
    expect(await entitlementsRow(stack, team.user.teamId)).toMatchObject({ max_sites: 2 });
    const end = new Date(Date.now() - 1000);
    await stack.ctx
      .db('subscriptions')
      .where({ id: team.subscriptionId })
      .update({ current_period_start: new Date(end.getTime() - 30 * DAY_MS), current_period_end: end });
    await sweepSubscriptions(stack.ctx, settings(), quiet);
    expect(await entitlementsRow(stack, team.user.teamId)).toMatchObject({ plan: created.body.data.code, max_sites: 4 });
  });

  it('catches up several missed periods of a yearly plan with an invoice each', async () => {
    const team = await activeTeam(stack, operator, 'agency-yearly');
    const start = new Date(Date.UTC(2024, 0, 31, 12));
    await stack.ctx
      .db('subscriptions')
      .where({ id: team.subscriptionId })
      .update({ billing_anchor: start, current_period_start: start, current_period_end: new Date(Date.UTC(2025, 0, 31, 12)) });
    await sweepSubscriptions(stack.ctx, settings(), quiet);
    const subscription = (await call(stack.client(), 'GET', '/v1/billing/subscription', team.token)).body.data;
    expect(subscription.current_period_end).toBe(
      new Date(Date.UTC(new Date().getUTCFullYear() + (Date.now() >= Date.UTC(new Date().getUTCFullYear(), 0, 31, 12) ? 1 : 0), 0, 31, 12)).toISOString(),
    );
    const invoices = (await call(stack.client(), 'GET', '/v1/billing/invoices', team.token)).body.data as Array<{ period_start: string; total_minor: number }>;
    expect(
      invoices
        .map((invoice) => invoice.period_start)
        .slice(0, -1)
        .reverse(),
    ).toEqual(Array.from({ length: invoices.length - 1 }, (_, index) => new Date(Date.UTC(2025 + index, 0, 31, 12)).toISOString()));
    expect(invoices.every((invoice) => invoice.total_minor === 178_800)).toBe(true);
  });
});

describe('a payment racing the sweep', () => {
  it("wins: a payment committed while the sweep waits on the subscription's lock leaves it active (it read the overdue invoice before)", async () => {
    const owner = await signedInOwner(stack);
    const teamId = owner.user.teamId;
    const chosen = await choosePlan(stack, owner.token, 'starter');
    await markPaid(stack, operator, chosen.body.data.invoice.id);
    await sweepAt(stack, new Date(chosen.body.data.subscription.current_period_end), [teamId]);
    const open = await stack.ctx.db('invoices').where({ team_id: teamId, status: 'open' }).first();
    const at = new Date(open.due_at.getTime() + stack.ctx.config.billing.unpaidAfterDays * DAY_MS + 1000);
    const trx = await stack.ctx.db.transaction();
    // the payment (a webhook's, an operator's) holds the subscription's row while the sweep reads and waits
    await trx('subscriptions').where({ team_id: teamId }).forUpdate().first('id');
    const sweeping = sweepAt(stack, at, [teamId]);
    await until(
      async () =>
        (await stack.ctx.db.raw("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%subscriptions%'")).rows[0].n >
        0,
      'the sweep to wait on the lock',
      10_000,
      20,
    );
    await payInvoice(trx, open.id, { reference: 'racing payment' }, new Date(at.getTime() - 1000));
    await trx.commit();
    expect(await sweeping).toMatchObject({ unpaid: 0 });
    expect((await stack.ctx.db('subscriptions').where({ team_id: teamId }).first('status')).status).toBe('active');
    expect(await entitlementsRow(stack, teamId)).toMatchObject({ plan: 'starter' });
  });
});
