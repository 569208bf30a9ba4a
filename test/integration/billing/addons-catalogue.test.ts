import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInOperator, signedInOwner } from '../../helpers/billing.ts';
import { accessTokenOf, unique } from '../../helpers/factories.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { addMember, call, failedFields } from '../../helpers/team-members.ts';

/** The add-on catalogue: teams read the active add-ons; operators list, add, read and change them. */
let stack: Stack;
let operator = '';
let owner = '';
const GiB = 1024 ** 3;

beforeAll(async () => {
  stack = await startStack({ workers: false });
  operator = (await signedInOperator(stack)).token;
  owner = (await signedInOwner(stack)).token;
});
afterAll(async () => {
  await stack?.stop();
});

function addonBody(overrides: Record<string, unknown> = {}) {
  return {
    code: unique('backups').toLowerCase(),
    name: 'More backups',
    price_minor: 300,
    currency: 'EUR',
    interval: 'month',
    extra_backups_manual_keep: 10,
    extra_backups_scheduled_keep: 14,
    ...overrides,
  };
}

describe('GET /v1/billing/addons', () => {
  it('lists the seeded add-ons, monthly then yearly, cheapest first, with what one unit adds', async () => {
    const reply = await call(stack.client(), 'GET', '/v1/billing/addons', owner);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const seeded = reply.body.data.filter((addon: { code: string }) => addon.code.startsWith('extra-'));
    expect(seeded.map((addon: { code: string }) => addon.code)).toEqual(['extra-site', 'extra-disk-50', 'extra-site-yearly', 'extra-disk-50-yearly']);
    expect(seeded[0]).toMatchObject({
      name: 'Extra site',
      price_minor: 500,
      currency: 'EUR',
      interval: 'month',
      active: true,
      adds: { extra_sites: 1, extra_disk_bytes: 0, extra_backups_manual_keep: 0, extra_backups_scheduled_keep: 0 },
    });
    expect(seeded[1]).toMatchObject({ price_minor: 1000, adds: { extra_sites: 0, extra_disk_bytes: 50 * GiB } });
  });

  it('is for billing:read (the billing role yes, a viewer 403)', async () => {
    const { user } = await signedInOwner(stack);
    const team = { teamId: user.teamId, teamName: user.teamName };
    expect(
      (await call(stack.client(), 'GET', '/v1/billing/addons', await accessTokenOf(stack.client(), await addMember(stack.ctx.db, team, 'billing')))).status,
    ).toBe(200);
    const viewer = await call(stack.client(), 'GET', '/v1/billing/addons', await accessTokenOf(stack.client(), await addMember(stack.ctx.db, team, 'viewer')));
    expect(viewer.status).toBe(403);
    expect(viewer.body.error.details.permission).toBe('billing:read');
  });
});

describe('operators manage add-ons', () => {
  it('add one that teams then see, read it, change its price and increments, withdraw it from sale', async () => {
    const body = addonBody();
    const created = await call(stack.client(), 'POST', '/v1/admin/billing/addons', operator, body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({
      code: body.code,
      price_minor: 300,
      active: true,
      adds: { extra_sites: 0, extra_disk_bytes: 0, extra_backups_manual_keep: 10, extra_backups_scheduled_keep: 14 },
    });
    const id = created.body.data.id;
    expect(created.headers.get('location')).toBe(`/v1/admin/billing/addons/${id}`);
    expect((await call(stack.client(), 'GET', `/v1/admin/billing/addons/${id}`, operator)).body.data).toEqual(created.body.data);
    const codes = async () => (await call(stack.client(), 'GET', '/v1/billing/addons', owner)).body.data.map((addon: { code: string }) => addon.code);
    expect(await codes()).toContain(body.code);

    const changed = await call(stack.client(), 'PATCH', `/v1/admin/billing/addons/${id}`, operator, {
      price_minor: 400,
      extra_backups_manual_keep: 0,
      active: false,
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data).toMatchObject({
      code: body.code,
      price_minor: 400,
      active: false,
      adds: { extra_backups_manual_keep: 0, extra_backups_scheduled_keep: 14 },
    });
    expect(await codes()).not.toContain(body.code);
    const all = await call(stack.client(), 'GET', '/v1/admin/billing/addons', operator);
    expect(all.body.data.find((addon: { id: number }) => addon.id === id)).toMatchObject({ active: false });

    const actions = (await call(stack.client(), 'GET', '/v1/activity', operator)).body.data.map((entry: { action: string }) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['addon.created', 'addon.updated']));
  });

  it('refuse a taken code (409 addon_code_taken), bad values and a unit that adds nothing (422 naming each field)', async () => {
    const taken = await call(stack.client(), 'POST', '/v1/admin/billing/addons', operator, addonBody({ code: 'extra-site' }));
    expect(taken.status).toBe(409);
    expect(taken.body.error.details.reason).toBe('addon_code_taken');

    const bad = await call(
      stack.client(),
      'POST',
      '/v1/admin/billing/addons',
      operator,
      addonBody({ code: 'Has Spaces', price_minor: 0, currency: 'eur', interval: 'week', extra_sites: -1, extra_disk_bytes: 1.5 }),
    );
    expect(bad.status).toBe(422);
    expect(failedFields(bad).sort()).toEqual(['code', 'currency', 'extra_disk_bytes', 'extra_sites', 'interval', 'price_minor']);

    const nothing = await call(
      stack.client(),
      'POST',
      '/v1/admin/billing/addons',
      operator,
      addonBody({ extra_backups_manual_keep: 0, extra_backups_scheduled_keep: 0 }),
    );
    expect(nothing.status).toBe(422);
    expect(failedFields(nothing)).toEqual(['extra_sites', 'extra_disk_bytes', 'extra_backups_manual_keep', 'extra_backups_scheduled_keep']);

    // The merged add-on must still add something; code, currency and interval never change.
    const id = (await call(stack.client(), 'POST', '/v1/admin/billing/addons', operator, addonBody({ extra_backups_manual_keep: 0 }))).body.data.id;
    expect(failedFields(await call(stack.client(), 'PATCH', `/v1/admin/billing/addons/${id}`, operator, { extra_backups_scheduled_keep: 0 }))).toHaveLength(4);
    const frozen = await call(stack.client(), 'PATCH', `/v1/admin/billing/addons/${id}`, operator, { code: 'other', currency: 'USD', interval: 'year' });
    expect(failedFields(frozen)).toEqual(expect.arrayContaining(['code', 'currency', 'interval'])); // and '': nothing left to change
    expect((await call(stack.client(), 'PATCH', `/v1/admin/billing/addons/${id}`, operator, {})).status).toBe(422);
    expect((await call(stack.client(), 'PATCH', '/v1/admin/billing/addons/999999', operator, { name: 'x' })).status).toBe(404);
    expect((await call(stack.client(), 'GET', '/v1/admin/billing/addons/999999', operator)).status).toBe(404);
    expect((await call(stack.client(), 'GET', '/v1/admin/billing/addons/abc', operator)).status).toBe(404);
  });

  it("are operator routes: a team owner gets the unknown-path 404, an operator's API token 403", async () => {
    expect((await call(stack.client(), 'GET', '/v1/admin/billing/addons', owner)).status).toBe(404);
    expect((await call(stack.client(), 'GET', '/v1/admin/billing/addons/1', owner)).status).toBe(404);
    expect((await call(stack.client(), 'POST', '/v1/admin/billing/addons', owner, addonBody())).status).toBe(404);
    expect((await call(stack.client(), 'PATCH', '/v1/admin/billing/addons/1', owner, { name: 'Hacked' })).status).toBe(404);
    expect((await stack.ctx.db('addons').where({ id: 1 }).first()).name).toBe('Extra site');

    const token = await call(stack.client(), 'POST', '/v1/api-tokens', operator, { name: 'ops', permissions: ['billing:read'] });
    expect(token.status, JSON.stringify(token.body)).toBe(201);
    const refused = await call(stack.client(), 'GET', '/v1/admin/billing/addons', token.body.data.token);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('AUTHORIZATION_ERROR');
  });

  it('an add-on held by a subscription cannot be deleted, only withdrawn', async () => {
    const team = await signedInOwner(stack);
    const subscriptionId = (await call(stack.client(), 'POST', '/v1/billing/subscription', team.token, { plan: 'starter' })).body.data.subscription.id;
    const addon = await stack.ctx.db('addons').where({ code: 'extra-site' }).first();
    await stack.ctx.db('subscription_addons').insert({ subscription_id: subscriptionId, addon_id: addon.id, quantity: 1 });
    await expect(stack.ctx.db('addons').where({ id: addon.id }).delete()).rejects.toThrow(/foreign key/);
  });
});
