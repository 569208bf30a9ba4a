import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInOperator, signedInOwner } from '../../helpers/billing.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { addMember, call, failedFields } from '../../helpers/team-members.ts';
import { accessTokenOf, unique } from '../../helpers/factories.ts';

/** The plan catalogue: teams read the active plans; operators list, add and change them. */
let stack: Stack;
let operator = '';
let owner = '';

beforeAll(async () => {
  stack = await startStack({ workers: false });
  operator = (await signedInOperator(stack)).token;
  owner = (await signedInOwner(stack)).token;
});
afterAll(async () => {
  await stack?.stop();
});

const MiB = 1024 ** 2;
function planBody(overrides: Record<string, unknown> = {}) {
  return {
    code: unique('pro').toLowerCase(),
    name: 'Pro',
    price_minor: 9900,
    currency: 'EUR',
    interval: 'month',
    max_sites: 10,
    max_disk_bytes: 100 * 1024 ** 3,
    environment_memory_bytes: 1024 * MiB,
    environment_cpu_millicores: 2000,
    backups_scheduled_keep: 30,
    backups_manual_keep: 20,
    ...overrides,
  };
}

describe('GET /v1/billing/plans', () => {
  it('lists the seeded plans, monthly then yearly, cheapest first, with prices in minor units and their entitlements', async () => {
    const reply = await call(stack.client(), 'GET', '/v1/billing/plans', owner);
    expect(reply.status).toBe(200);
    const seeded = reply.body.data.filter((plan: { code: string }) => ['starter', 'business', 'agency', 'agency-yearly'].includes(plan.code));
    expect(seeded.map((plan: { code: string }) => plan.code)).toEqual(['starter', 'business', 'agency', 'agency-yearly']);
    expect(seeded.map((plan: { trial_days: number }) => plan.trial_days)).toEqual([14, 14, 0, 0]);
    expect(seeded[0]).toMatchObject({
      name: 'Starter',
      price_minor: 1500,
      currency: 'EUR',
      interval: 'month',
      active: true,
      entitlements: {
        max_sites: 1,
        max_disk_bytes: 10 * 1024 ** 3,
        environment_memory_bytes: 512 * MiB,
        environment_cpu_millicores: 1000,
        backups_scheduled_keep: 14,
        backups_manual_keep: 10,
      },
    });
  });

  it('is for billing:read (the billing role yes, a developer 403)', async () => {
    const { user } = await signedInOwner(stack);
    const team = { teamId: user.teamId, teamName: user.teamName };
    expect(
      (await call(stack.client(), 'GET', '/v1/billing/plans', await accessTokenOf(stack.client(), await addMember(stack.ctx.db, team, 'billing')))).status,
    ).toBe(200);
    expect(
      (await call(stack.client(), 'GET', '/v1/billing/plans', await accessTokenOf(stack.client(), await addMember(stack.ctx.db, team, 'viewer')))).status,
    ).toBe(403);
  });
});

describe('operators manage plans', () => {
  it('add a plan that teams then see, change its price, withdraw it from sale', async () => {
    const body = planBody();
    const created = await call(stack.client(), 'POST', '/v1/admin/billing/plans', operator, body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({ code: body.code, price_minor: 9900, trial_days: 0, active: true, entitlements: { max_sites: 10 } });
    const id = created.body.data.id;
    expect(created.headers.get('location')).toBe(`/v1/admin/billing/plans/${id}`);
    const codes = async () => (await call(stack.client(), 'GET', '/v1/billing/plans', owner)).body.data.map((plan: { code: string }) => plan.code);
    expect(await codes()).toContain(body.code);

    const changed = await call(stack.client(), 'PATCH', `/v1/admin/billing/plans/${id}`, operator, { price_minor: 10900, trial_days: 30, active: false });
    expect(changed.body.data).toMatchObject({ code: body.code, price_minor: 10900, trial_days: 30, active: false });
    expect(await codes()).not.toContain(body.code);
    const all = await call(stack.client(), 'GET', '/v1/admin/billing/plans', operator);
    expect(all.body.data.find((plan: { id: number }) => plan.id === id)).toMatchObject({ active: false });
  });

  it('refuse a taken code (409 plan_code_taken) and bad values (422 naming each field)', async () => {
    const taken = await call(stack.client(), 'POST', '/v1/admin/billing/plans', operator, planBody({ code: 'starter' }));
    expect(taken.status).toBe(409);
    expect(taken.body.error.details.reason).toBe('plan_code_taken');
    const bad = await call(
      stack.client(),
      'POST',
      '/v1/admin/billing/plans',
      operator,
      planBody({ code: 'Has Spaces', price_minor: 9.99, currency: 'eur', interval: 'week', max_sites: -1, trial_days: 91 }),
    );
    expect(bad.status).toBe(422);
    expect(failedFields(bad).sort()).toEqual(['code', 'currency', 'interval', 'max_sites', 'price_minor', 'trial_days']);
    const free = await call(stack.client(), 'POST', '/v1/admin/billing/plans', operator, planBody({ price_minor: 0 }));
    expect(failedFields(free)).toEqual(['price_minor']);
    const rename = await call(stack.client(), 'PATCH', '/v1/admin/billing/plans/1', operator, { code: 'other' });
    expect(failedFields(rename)).toContain('code');
    const nothing = await call(stack.client(), 'PATCH', '/v1/admin/billing/plans/1', operator, {});
    expect(nothing.status).toBe(422);
    expect((await call(stack.client(), 'PATCH', '/v1/admin/billing/plans/999999', operator, { name: 'x' })).status).toBe(404);
  });

  it('are operator routes: a team owner gets 404, as for an unknown path', async () => {
    expect((await call(stack.client(), 'GET', '/v1/admin/billing/plans', owner)).status).toBe(404);
    expect((await call(stack.client(), 'POST', '/v1/admin/billing/plans', owner, planBody())).status).toBe(404);
    expect((await call(stack.client(), 'PATCH', '/v1/admin/billing/plans/1', owner, { name: 'Hacked' })).status).toBe(404);
    expect((await call(stack.client(), 'GET', '/v1/admin/billing/invoices', owner)).status).toBe(404);
  });

  it("list every team's open invoices, to find the one a bank transfer pays", async () => {
    const team = await signedInOwner(stack);
    const invoiceId = (await call(stack.client(), 'POST', '/v1/billing/subscription', team.token, { plan: 'starter', trial: false })).body.data.invoice.id;
    const open = await call(stack.client(), 'GET', `/v1/admin/billing/invoices?status=open&team_id=${team.user.teamId}`, operator);
    expect(open.body.data).toEqual([expect.objectContaining({ id: invoiceId, team_id: team.user.teamId, status: 'open' })]);
    expect((await call(stack.client(), 'GET', '/v1/admin/billing/invoices?team_id=abc', operator)).status).toBe(422);
  });
});
