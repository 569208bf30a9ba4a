import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prorate } from '../../../shared/domains/billing/proration.ts';
import { sweepSubscriptions } from '../../../shared/domains/billing/sweep-subscriptions.ts';
import { activeTeam, choosePlan, entitlementsRow, markPaid, signedInOperator, signedInOwner } from '../../helpers/billing.ts';
import { unique } from '../../helpers/factories.ts';
import { pdfText } from '../../helpers/pdf-text.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { call, failedFields } from '../../helpers/team-members.ts';

/**
 * A subscription's add-ons: an increase applies at once with a proration invoice by the second, a
 * decrease or removal waits for the renewal, whose invoice lists the plan and each add-on; the
 * entitlements are the plan's plus the add-ons'. No tax here, so an invoice's total is its items'.
 */
let stack: Stack;
let operator = '';
const DAY_MS = 86_400_000;
const GiB = 1024 ** 3;
const quiet = { info: () => undefined };

beforeAll(async () => {
  stack = await startStack({ workers: false, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  operator = (await signedInOperator(stack)).token;
});
afterAll(async () => {
  await stack?.stop();
});

/** A team whose first invoice is paid, ten days into a 30-day period (easy amounts to check). */
async function tenDaysIntoPeriod(plan: string) {
  const team = await activeTeam(stack, operator, plan);
  const start = new Date(Date.now() - 10 * DAY_MS);
  const end = new Date(start.getTime() + 30 * DAY_MS);
  await stack.ctx.db('subscriptions').where({ id: team.subscriptionId }).update({ current_period_start: start, current_period_end: end });
  return { ...team, start, end };
}

const put = (token: string, code: string, body: unknown) => call(stack.client(), 'PUT', `/v1/billing/subscription/addons/${code}`, token, body);
const remove = (token: string, code: string) => call(stack.client(), 'DELETE', `/v1/billing/subscription/addons/${code}`, token);
const held = (token: string) => call(stack.client(), 'GET', '/v1/billing/subscription/addons', token);

describe('buying more units', () => {
  it("during a trial: limits at once, no invoice; the trial's end bills them with the plan", async () => {
    const owner = await signedInOwner(stack);
    const chosen = await choosePlan(stack, owner.token, 'starter', { trial: true });
    expect(chosen.body.data.subscription.status, JSON.stringify(chosen.body)).toBe('trialing');
    const bought = await put(owner.token, 'extra-site', { quantity: 1 });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    expect(bought.body.data).toMatchObject({ effective: 'now', invoice: null, entitlements: { max_sites: 2 } });
    expect(await stack.ctx.db('invoices').where({ team_id: owner.user.teamId }).select('id')).toEqual([]);
    const trialEnd = new Date(chosen.body.data.subscription.trial_end);
    await sweepSubscriptions(stack.ctx, stack.ctx.config.billing, quiet, new Date(trialEnd.getTime() + 1000), { teamIds: [owner.user.teamId] });
    const [first] = await stack.ctx.db('invoices').where({ team_id: owner.user.teamId }).select('subtotal_minor');
    expect(first?.subtotal_minor).toBe(1500 + 500);
  });

  it('applies at once: the limits grow and an invoice charges the added units for the rest of the period, by the second', async () => {
    const team = await tenDaysIntoPeriod('starter');
    const first = await put(team.token, 'extra-site', { quantity: 2 });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toMatchObject({
      effective: 'now',
      addon: { code: 'extra-site', quantity: 2, pending_quantity: null, unit_price_minor: 500, currency: 'EUR', interval: 'month', adds: { extra_sites: 1 } },
      entitlements: { max_sites: 3, max_disk_bytes: 10 * GiB },
      entitlements_at_renewal: { max_sites: 3 },
    });
    // The invoice's period starts at the server's clock read: the proration must be exactly prorate()'s at that instant.
    const invoice = first.body.data.invoice;
    const at = new Date(invoice.period_start);
    expect(at.getTime()).toBeGreaterThan(team.start.getTime() + 10 * DAY_MS - 60_000);
    const bought = prorate({ periodStart: team.start, periodEnd: team.end, at, oldPriceMinor: 0, newPriceMinor: 2 * 500 });
    expect(invoice.lines).toEqual([
      expect.objectContaining({
        kind: 'item',
        description: expect.stringMatching(/^Remaining time on 2 × Extra site, /),
        quantity: 1,
        amount_minor: bought.chargeMinor,
      }),
    ]);
    expect(bought.chargeMinor).toBeCloseTo(667, -1); // 20 of 30 days of 2 × 5.00
    expect(invoice).toMatchObject({
      status: 'open',
      subtotal_minor: bought.chargeMinor,
      total_minor: bought.chargeMinor,
      period_end: team.end.toISOString(),
      subscription_id: team.subscriptionId,
    });
    expect(await entitlementsRow(stack, team.user.teamId)).toMatchObject({ plan: 'starter', max_sites: 3, max_disk_bytes: 10 * GiB });

    // One more: the two held are credited for the rest of the period and three charged.
    const second = await put(team.token, 'extra-site', { quantity: 3 });
    const lines = second.body.data.invoice.lines;
    const more = prorate({
      periodStart: team.start,
      periodEnd: team.end,
      at: new Date(second.body.data.invoice.period_start),
      oldPriceMinor: 2 * 500,
      newPriceMinor: 3 * 500,
    });
    expect(lines.map((line: { description: string; amount_minor: number }) => [line.description.split(',')[0], line.amount_minor])).toEqual([
      ['Unused time on 2 × Extra site', more.creditMinor],
      ['Remaining time on 3 × Extra site', more.chargeMinor],
    ]);
    expect(second.body.data.invoice.total_minor).toBe(more.netMinor);

    // Another kind adds its own increments.
    expect((await put(team.token, 'extra-disk-50', { quantity: 1 })).body.data.entitlements).toMatchObject({ max_sites: 4, max_disk_bytes: 60 * GiB });
    expect(await entitlementsRow(stack, team.user.teamId)).toMatchObject({ max_sites: 4, max_disk_bytes: 60 * GiB, backups_manual_keep: 10 });
    const listed = (await held(team.token)).body.data;
    expect(listed.addons.map((addon: { code: string; quantity: number }) => [addon.code, addon.quantity])).toEqual([
      ['extra-site', 3],
      ['extra-disk-50', 1],
    ]);
    expect(listed.entitlements).toMatchObject({ max_sites: 4, max_disk_bytes: 60 * GiB });
    const invoices = (await call(stack.client(), 'GET', '/v1/billing/invoices', team.token)).body.pagination.total;
    expect(invoices).toBe(4); // the first period's and three increases'

    const actions = (await call(stack.client(), 'GET', '/v1/activity', team.token)).body.data.map(
      (entry: { action: string; target_id?: string }) => entry.action,
    );
    expect(actions).toEqual(expect.arrayContaining(['subscription.addon_changed']));
  });

  it('lets a team create one more site: site creation counts the add-on', async () => {
    const team = await tenDaysIntoPeriod('starter');
    await stack.ctx.db('sites').insert({ team_id: team.user.teamId, name: 'first', slug: unique('first').toLowerCase(), region: 'eu' });
    const createSite = () =>
      call(stack.client(), 'POST', '/v1/sites', team.token, {
        name: 'Second',
        region: unique('nowhere'),
        php_version: '8.2',
        wordpress: { title: 'Second', admin_user: 'ada', admin_email: 'ada@example.test' },
      });
    const refused = await createSite();
    expect(refused.status).toBe(402);
    expect(refused.body.error.details.limit).toBe('max_sites');
    expect((await put(team.token, 'extra-site', { quantity: 1 })).status).toBe(200);
    expect((await call(stack.client(), 'GET', '/v1/entitlements', team.token)).body.data).toMatchObject({ plan: 'starter', max_sites: 2 });
    const unlocked = await createSite();
    expect(unlocked.status, JSON.stringify(unlocked.body)).toBe(409); // past the plan check: no node serves that region
    expect(unlocked.body.error.message).toMatch(/No node in region/);
  });

  it('charges nothing for a period that is over but not yet renewed: the renewal bills the new quantity', async () => {
    const team = await tenDaysIntoPeriod('starter');
    const end = new Date(Date.now() - 60_000);
    await stack.ctx
      .db('subscriptions')
      .where({ id: team.subscriptionId })
      .update({ current_period_start: new Date(end.getTime() - 30 * DAY_MS), current_period_end: end });
    const reply = await put(team.token, 'extra-site', { quantity: 1 });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.data).toMatchObject({ effective: 'now', invoice: null, entitlements: { max_sites: 2 } });
  });

  it('is reported to webhooks as subscription.updated with the add-ons held', async () => {
    const team = await tenDaysIntoPeriod('business');
    expect(
      (await call(stack.client(), 'POST', '/v1/webhooks', team.token, { url: 'http://127.0.0.1:9/hook', event_types: ['subscription.*', 'invoice.*'] })).status,
    ).toBe(201);
    await put(team.token, 'extra-site', { quantity: 2 });
    await put(team.token, 'extra-site', { quantity: 1 });
    // Events of one transaction share its timestamp: compared as sets.
    const events = (await stack.ctx.db('webhook_events').where({ team_id: team.user.teamId }).select('type', 'body')) as Array<{ type: string; body: string }>;
    expect(events.map((event) => event.type).sort()).toEqual(['invoice.finalized', 'subscription.updated', 'subscription.updated']);
    const updates = events.filter((event) => event.type === 'subscription.updated').map((event) => JSON.parse(event.body).data.subscription.addons);
    expect(updates).toHaveLength(2);
    expect(updates).toEqual(
      expect.arrayContaining([[{ code: 'extra-site', quantity: 2, pending_quantity: null }], [{ code: 'extra-site', quantity: 2, pending_quantity: 1 }]]),
    );
  });
});

describe('refusals', () => {
  it("quantities outside 1 to 100 or not whole, unknown codes, other teams' add-ons", async () => {
    const team = await tenDaysIntoPeriod('starter');
    for (const quantity of [0, 101, 1.5, '2', null])
      expect(failedFields(await put(team.token, 'extra-site', { quantity })), String(quantity)).toEqual(['quantity']);
    expect(failedFields(await put(team.token, 'extra-site', {}))).toEqual(['quantity']);
    expect(failedFields(await put(team.token, 'extra-site', { quantity: 1, price_minor: 1 }))).toEqual(['price_minor']);
    expect((await put(team.token, 'no-such-addon', { quantity: 1 })).status).toBe(404);
    expect((await remove(team.token, 'no-such-addon')).status).toBe(404);
    expect((await remove(team.token, 'extra-disk-50')).status).toBe(404); // known, but not held

    // Another team sees its own add-ons only, and cannot remove this team's.
    expect((await put(team.token, 'extra-site', { quantity: 2 })).status).toBe(200);
    const other = await tenDaysIntoPeriod('starter');
    expect((await held(other.token)).body.data).toMatchObject({ addons: [], entitlements: { max_sites: 1 } });
    expect((await remove(other.token, 'extra-site')).status).toBe(404);
    expect((await held(team.token)).body.data.addons).toEqual([expect.objectContaining({ code: 'extra-site', quantity: 2, pending_quantity: null })]);
    expect((await held((await signedInOwner(stack)).token)).status).toBe(404); // no subscription
  });

  it('an add-on billed in another currency or interval than the plan, or no longer sold (422 naming code)', async () => {
    const yearly = await tenDaysIntoPeriod('agency-yearly');
    const monthlyOnYearly = await put(yearly.token, 'extra-site', { quantity: 1 });
    expect(monthlyOnYearly.status).toBe(422);
    expect(failedFields(monthlyOnYearly)).toEqual(['code']);
    expect((await put(yearly.token, 'extra-site-yearly', { quantity: 1 })).body.data.entitlements.max_sites).toBe(26);

    const dollars = await call(stack.client(), 'POST', '/v1/admin/billing/addons', operator, {
      code: unique('usd-site').toLowerCase(),
      name: 'Site (USD)',
      price_minor: 600,
      currency: 'USD',
      interval: 'month',
      extra_sites: 1,
    });
    expect(dollars.status).toBe(201);
    const monthly = await tenDaysIntoPeriod('starter');
    const refused = await put(monthly.token, dollars.body.data.code, { quantity: 1 });
    expect(failedFields(refused)).toEqual(['code']);
    expect(refused.body.error.details.fields[0].message).toMatch(/USD per month/);

    const withdrawn = await call(stack.client(), 'POST', '/v1/admin/billing/addons', operator, {
      code: unique('gone').toLowerCase(),
      name: 'Gone',
      price_minor: 100,
      currency: 'EUR',
      interval: 'month',
      extra_sites: 1,
    });
    const code = withdrawn.body.data.code;
    expect((await put(monthly.token, code, { quantity: 2 })).status).toBe(200);
    await call(stack.client(), 'PATCH', `/v1/admin/billing/addons/${withdrawn.body.data.id}`, operator, { active: false });
    const more = await put(monthly.token, code, { quantity: 3 });
    expect(failedFields(more)).toEqual(['code']);
    expect(more.body.error.details.fields[0].message).toMatch(/no longer offered/);
    // Held ones may still be kept or decreased.
    expect((await put(monthly.token, code, { quantity: 1 })).body.data).toMatchObject({
      effective: 'period_end',
      addon: { quantity: 2, pending_quantity: 1, active: false },
    });
  });

  it('a subscription that is not active, or ends at period end (409 subscription_not_active)', async () => {
    const incomplete = await signedInOwner(stack);
    await choosePlan(stack, incomplete.token, 'starter');
    const refused = await put(incomplete.token, 'extra-site', { quantity: 1 });
    expect(refused.status).toBe(409);
    expect(refused.body.error.details.reason).toBe('subscription_not_active');

    const team = await tenDaysIntoPeriod('starter');
    expect((await put(team.token, 'extra-site', { quantity: 1 })).status).toBe(200);
    expect((await call(stack.client(), 'DELETE', '/v1/billing/subscription', team.token)).body.data.cancel_at_period_end).toBe(true);
    for (const reply of [await put(team.token, 'extra-site', { quantity: 2 }), await remove(team.token, 'extra-site')]) {
      expect(reply.status).toBe(409);
      expect(reply.body.error.details.reason).toBe('subscription_not_active');
    }
    const stranger = await signedInOwner(stack);
    expect((await put(stranger.token, 'extra-site', { quantity: 1 })).status).toBe(404);
  });
});

describe('fewer units', () => {
  it('wait for the renewal, which applies them, bills the plan and each add-on, and writes the limits', async () => {
    const team = await tenDaysIntoPeriod('business');
    // Paid, so the sweep's dunning (it runs at the period's end) leaves the subscription active.
    for (const [code, quantity] of [
      ['extra-site', 3],
      ['extra-disk-50', 1],
    ] as const) {
      const bought = await put(team.token, code, { quantity });
      expect((await markPaid(stack, operator, bought.body.data.invoice.id)).status).toBe(200);
    }
    const invoicesBefore = (await call(stack.client(), 'GET', '/v1/billing/invoices', team.token)).body.pagination.total;

    const fewer = await put(team.token, 'extra-site', { quantity: 2 });
    expect(fewer.body.data).toMatchObject({
      effective: 'period_end',
      invoice: null,
      addon: { quantity: 3, pending_quantity: 2 },
      entitlements: { max_sites: 8 },
      entitlements_at_renewal: { max_sites: 7 },
    });
    const removed = await remove(team.token, 'extra-disk-50');
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.data).toMatchObject({
      effective: 'period_end',
      addon: { quantity: 1, pending_quantity: 0 },
      entitlements: { max_disk_bytes: 100 * GiB },
      entitlements_at_renewal: { max_disk_bytes: 50 * GiB },
    });
    expect(await entitlementsRow(stack, team.user.teamId)).toMatchObject({ max_sites: 8, max_disk_bytes: 100 * GiB });

    // The current quantity again drops the pending decrease; the decrease again restores it.
    expect((await put(team.token, 'extra-site', { quantity: 3 })).body.data).toMatchObject({ effective: 'unchanged', addon: { pending_quantity: null } });
    expect((await put(team.token, 'extra-site', { quantity: 2 })).body.data.addon.pending_quantity).toBe(2);
    expect((await call(stack.client(), 'GET', '/v1/billing/invoices', team.token)).body.pagination.total).toBe(invoicesBefore);

    // The sweep at the period's end, as the worker would run it then.
    const after = new Date(team.end.getTime() + 1000);
    await sweepSubscriptions(stack.ctx, stack.ctx.config.billing, quiet, after);
    const renewed = (await held(team.token)).body.data;
    expect(renewed.addons).toEqual([expect.objectContaining({ code: 'extra-site', quantity: 2, pending_quantity: null })]);
    expect(renewed.entitlements).toMatchObject({ max_sites: 7, max_disk_bytes: 50 * GiB });
    expect(await entitlementsRow(stack, team.user.teamId)).toMatchObject({ plan: 'business', max_sites: 7, max_disk_bytes: 50 * GiB });
    expect(await stack.ctx.db('subscription_addons').where({ subscription_id: team.subscriptionId })).toHaveLength(1);

    const latest = (await call(stack.client(), 'GET', '/v1/billing/invoices', team.token)).body.data[0];
    const invoice = (await call(stack.client(), 'GET', `/v1/billing/invoices/${latest.id}`, team.token)).body.data;
    expect(invoice).toMatchObject({ period_start: team.end.toISOString(), subtotal_minor: 4900 + 2 * 500, total_minor: 5900 });
    expect(
      invoice.lines.map((line: { description: string; quantity: number; unit_amount_minor: number; amount_minor: number }) => [
        line.description.split(',')[0],
        line.quantity,
        line.unit_amount_minor,
        line.amount_minor,
      ]),
    ).toEqual([
      ['Business plan', 1, 4900, 4900],
      ['Extra site', 2, 500, 1000],
    ]);
    const pdf = await call(stack.client(), 'GET', `/v1/billing/invoices/${latest.id}/pdf`, team.token);
    expect(pdf.status).toBe(200);
    expect(pdfText(pdf.bytes).join(' ')).toMatch(/Extra site, .*\(2 × €5\.00\).*€10\.00/);
  });

  it('a team that subscribes again starts without the add-ons of its ended subscription', async () => {
    const team = await tenDaysIntoPeriod('starter');
    await put(team.token, 'extra-site', { quantity: 1 });
    await stack.ctx.db('subscriptions').where({ id: team.subscriptionId }).update({ status: 'canceled', ended_at: new Date() });
    const again = await choosePlan(stack, team.token, 'starter');
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.data.invoice.lines).toEqual([expect.objectContaining({ description: expect.stringMatching(/^Starter plan/) })]);
    expect((await held(team.token)).body.data.addons).toEqual([]);
  });
});
