import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Environment } from '../../../shared/db/models.ts';
import { finishOperation } from '../../../shared/domains/operations/operations.ts';
import { createOwner, signIn, unique, type TestUser } from '../../helpers/factories.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';

let stack: Stack;
let operatorToken: string;
const teams: number[] = [];
beforeAll(async () => {
  stack = await startStack({ workers: false });
  const operator = await createOwner(stack.ctx.db);
  await stack.ctx.db('users').where({ id: operator.userId }).update({ platform_role: 'operator' });
  operatorToken = await tokenOf(operator);
});
afterAll(async () => {
  // No workers here: the operations this file queued would be picked up by another file's workers
  // (their sweeper requeues queued operations of the shared database) and wait for nodes that do not exist.
  if (stack) {
    const queued = await stack.ctx.db('operations').whereIn('team_id', teams).where({ status: 'queued' }).pluck('id');
    for (const id of queued) await stack.ctx.db.transaction((trx) => finishOperation(trx, id, 'cancelled', { error: null }));
  }
  await stack?.stop();
});

async function tokenOf(user: TestUser): Promise<string> {
  return (await signIn(stack.client(), user)).setCookies.find((cookie) => cookie.name === 'svc_access')!.value;
}
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

/** A node that looks enrolled and alive, in its own region so the tests do not place on each other's. */
async function onlineNode(region: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const [row] = await stack.ctx.db('nodes')
    .insert({ name: unique('node'), region, public_address: '127.0.0.1', ssh_host: '127.0.0.1', ssh_user: 'root', status: 'online', last_heartbeat_at: new Date(), ...overrides })
    .returning('id');
  return row.id;
}

async function teamWithPlan(plan: { max_sites: number; max_disk_bytes?: number } | null): Promise<{ owner: TestUser; token: string }> {
  const owner = await createOwner(stack.ctx.db);
  teams.push(owner.teamId);
  if (plan) {
    const reply = await stack.client().request('PUT', `/v1/admin/teams/${owner.teamId}/entitlements`, { json: { plan: 'starter', max_disk_bytes: 100 * 1024 ** 3, ...plan }, ...bearer(operatorToken) });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  }
  return { owner, token: await tokenOf(owner) };
}

const siteBody = (region: string, extra: Record<string, unknown> = {}) => ({
  name: unique('Blog'),
  region,
  php_version: '8.2',
  wordpress: { title: 'My blog', admin_user: 'ann', admin_email: 'ann@example.test' },
  ...extra,
});

describe('POST /v1/sites', () => {
  it('answers 202 with the site, its production environment and a queued site.create operation, readable at once', async () => {
    const region = unique('region');
    const nodeId = await onlineNode(region);
    const { owner, token } = await teamWithPlan({ max_sites: 3 });
    const reply = await stack.client().post('/v1/sites', siteBody(region, { slug: unique('blog').slice(0, 20) }), bearer(token));
    expect(reply.status, JSON.stringify(reply.body)).toBe(202);
    const { site, operation } = reply.body.data;
    expect(site).toMatchObject({ status: 'creating', region, environments: [{ kind: 'production', status: 'creating', php_version: '8.2', domain: `production-${site.slug}.sites.localhost` }] });
    expect(operation).toMatchObject({ kind: 'site.create', status: 'queued', target: { type: 'site', id: String(site.id) } });
    expect(operation.steps.map((step: { name: string }) => step.name)).toEqual(['node_services', 'database', 'files', 'container', 'configure', 'install', 'route', 'verify']);
    expect(reply.headers.get('location')).toBe(`/v1/operations/${operation.id}`);
    expect((await stack.client().get(`/v1/operations/${operation.id}`, bearer(token))).status).toBe(200);
    const environment = await Environment.query(stack.ctx.db).findOne({ site_id: site.id });
    expect(environment).toMatchObject({ node_id: nodeId, team_id: owner.teamId });
    expect(environment!.db_password_sealed).not.toContain(environment!.db_name);
    expect(JSON.stringify(reply.body)).not.toContain(environment!.db_password_sealed);

    const list = await stack.client().get('/v1/sites', bearer(token));
    expect(list.body.data.map((entry: { id: number }) => entry.id)).toEqual([site.id]);
    expect(list.body.pagination).toMatchObject({ total: 1, page: 1 });
    expect((await stack.client().get(`/v1/sites/${site.id}`, bearer(token))).body.data.id).toBe(site.id);
  });

  it('refuses a team without a plan (402, limit plan) and one at its max_sites (402, limit max_sites)', async () => {
    const region = unique('region');
    await onlineNode(region);
    const none = await teamWithPlan(null);
    const refused = await stack.client().post('/v1/sites', siteBody(region), bearer(none.token));
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({ code: 'PAYMENT_REQUIRED', details: { limit: 'plan' } });

    const one = await teamWithPlan({ max_sites: 1 });
    expect((await stack.client().post('/v1/sites', siteBody(region), bearer(one.token))).status).toBe(202);
    const full = await stack.client().post('/v1/sites', siteBody(region), bearer(one.token));
    expect(full.status).toBe(402);
    expect(full.body.error.details.limit).toBe('max_sites');

    const noDisk = await teamWithPlan({ max_sites: 5, max_disk_bytes: 1024 });
    expect((await stack.client().post('/v1/sites', siteBody(region), bearer(noDisk.token))).body.error.details.limit).toBe('max_disk_bytes');
  });

  it('lets only one of two simultaneous creations take the last site of the plan', async () => {
    const region = unique('region');
    await onlineNode(region);
    const { token } = await teamWithPlan({ max_sites: 1 });
    const replies = await Promise.all([stack.client().post('/v1/sites', siteBody(region), bearer(token)), stack.client().post('/v1/sites', siteBody(region), bearer(token))]);
    expect(replies.map((reply) => reply.status).sort()).toEqual([202, 402]);
  });

  it('places on the least loaded online node of the region; never on a draining, silent or full one', async () => {
    const region = unique('region');
    const busy = await onlineNode(region);
    const idle = await onlineNode(region);
    await onlineNode(region, { status: 'draining' });
    await onlineNode(region, { last_heartbeat_at: new Date(Date.now() - 10 * 60_000) });
    await onlineNode(region, { capacity: JSON.stringify({ max_sites: 0 }) });
    const { token } = await teamWithPlan({ max_sites: 10 });
    const first = await stack.client().post('/v1/sites', siteBody(region), bearer(token));
    const firstNode = (await Environment.query(stack.ctx.db).findOne({ site_id: first.body.data.site.id }))!.node_id;
    expect([busy, idle]).toContain(firstNode);
    const second = await stack.client().post('/v1/sites', siteBody(region), bearer(token));
    const secondNode = (await Environment.query(stack.ctx.db).findOne({ site_id: second.body.data.site.id }))!.node_id;
    expect(secondNode).not.toBe(firstNode);
    expect([busy, idle]).toContain(secondNode);
  });

  it('answers 409 when no node of the region can take it, and when the slug is taken', async () => {
    const { token } = await teamWithPlan({ max_sites: 5 });
    const nowhere = await stack.client().post('/v1/sites', siteBody(unique('empty-region')), bearer(token));
    expect(nowhere.status).toBe(409);
    expect(nowhere.body.error.message).toMatch(/No node in region/);
    const region = unique('region');
    await onlineNode(region);
    const slug = unique('taken').slice(0, 20);
    expect((await stack.client().post('/v1/sites', siteBody(region, { slug }), bearer(token))).status).toBe(202);
    expect((await stack.client().post('/v1/sites', siteBody(region, { slug }), bearer(token))).status).toBe(409);
  });

  it('names each bad field in a 422', async () => {
    const { token } = await teamWithPlan({ max_sites: 5 });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ php_version: '5.6' }, 'php_version'],
      [{ slug: 'Not A Slug' }, 'slug'],
      [{ wordpress: { title: 'x', admin_user: 'ann', admin_email: 'not-an-address' } }, 'wordpress.admin_email'],
      [{ colour: 'blue' }, 'colour'],
    ];
    for (const [change, field] of cases) {
      const reply = await stack.client().post('/v1/sites', siteBody('any', change), bearer(token));
      expect(reply.status, JSON.stringify(change)).toBe(422);
      expect(reply.body.error.details.fields.map((problem: { field: string }) => problem.field)).toContain(field);
    }
  });
});

describe('who sees sites and plans', () => {
  it('gives another team\'s site id 404, and a viewer 403 on creation and deletion', async () => {
    const region = unique('region');
    await onlineNode(region);
    const a = await teamWithPlan({ max_sites: 5 });
    const b = await teamWithPlan({ max_sites: 5 });
    const created = await stack.client().post('/v1/sites', siteBody(region), bearer(a.token));
    expect((await stack.client().get(`/v1/sites/${created.body.data.site.id}`, bearer(b.token))).status).toBe(404);
    expect((await stack.client().get('/v1/sites', bearer(b.token))).body.data).toEqual([]);

    const viewerRole = await stack.ctx.db('roles').whereNull('team_id').where({ name: 'viewer' }).first('id');
    await stack.ctx.db('memberships').where({ team_id: b.owner.teamId, user_id: b.owner.userId }).update({ role_id: viewerRole.id });
    const refused = await stack.client().post('/v1/sites', siteBody(region), bearer(b.token));
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.permission).toBe('sites:create');
    const notDeleted = await stack.client().request('DELETE', `/v1/sites/${created.body.data.site.id}`, bearer(b.token));
    expect(notDeleted.status).toBe(403);
    expect(notDeleted.body.error.details.permission).toBe('sites:delete');
    expect((await stack.client().request('DELETE', `/v1/sites/${created.body.data.site.id}`, bearer(a.token))).status).toBe(202);
  });

  it('shows a team its plan; only operators set one (others: 404 as an unknown path)', async () => {
    const { owner, token } = await teamWithPlan({ max_sites: 2 });
    expect((await stack.client().get('/v1/entitlements', bearer(token))).body.data).toMatchObject({ team_id: owner.teamId, plan: 'starter', max_sites: 2 });
    const attempt = await stack.client().request('PUT', `/v1/admin/teams/${owner.teamId}/entitlements`, { json: { plan: 'huge', max_sites: 1000, max_disk_bytes: 1 }, ...bearer(token) });
    expect(attempt.status).toBe(404);
    const none = await teamWithPlan(null);
    expect((await stack.client().get('/v1/entitlements', bearer(none.token))).status).toBe(404);
  });
});
