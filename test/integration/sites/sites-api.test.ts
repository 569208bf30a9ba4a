import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Environment } from '../../../shared/db/models.ts';
import { finishOperation } from '../../../shared/domains/operations/operations.ts';
import { bearer } from '../../helpers/client.ts';
import { accessTokenOf, createOwner, unique, type TestUser } from '../../helpers/factories.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';

let stack: Stack;
let operatorToken: string;
const teams: number[] = [];
beforeAll(async () => {
  stack = await startStack({ workers: false });
  const operator = await createOwner(stack.ctx.db);
  await stack.ctx.db('users').where({ id: operator.userId }).update({ platform_role: 'operator' });
  operatorToken = await accessTokenOf(stack.client(), operator);
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

/** A node that looks enrolled and alive, in its own region so the tests do not place on each other's. */
async function onlineNode(region: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const [row] = await stack.ctx
    .db('nodes')
    .insert({
      name: unique('node'),
      region,
      public_address: '127.0.0.1',
      ssh_host: '127.0.0.1',
      ssh_user: 'root',
      status: 'online',
      last_heartbeat_at: new Date(),
      ...overrides,
    })
    .returning('id');
  return row.id;
}

async function teamWithPlan(plan: { max_sites: number; max_disk_bytes?: number } | null): Promise<{ owner: TestUser; token: string }> {
  const owner = await createOwner(stack.ctx.db);
  teams.push(owner.teamId);
  if (plan) {
    const reply = await stack.client().request('PUT', `/v1/admin/teams/${owner.teamId}/entitlements`, {
      json: { plan: 'starter', max_disk_bytes: 100 * 1024 ** 3, ...plan },
      ...bearer(operatorToken),
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  }
  return { owner, token: await accessTokenOf(stack.client(), owner) };
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
    expect(site).toMatchObject({
      status: 'creating',
      region,
      environments: [{ kind: 'production', status: 'creating', php_version: '8.2', domain: `production-${site.slug}.sites.localhost` }],
    });
    expect(operation).toMatchObject({ kind: 'site.create', status: 'queued', target: { type: 'site', id: String(site.id) } });
    expect(operation.steps.map((step: { name: string }) => step.name)).toEqual([
      'node_services',
      'files',
      'container',
      'database',
      'configure',
      'install',
      'route',
      'inventory',
      'verify',
      'pool',
    ]);
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
    const replies = await Promise.all([
      stack.client().post('/v1/sites', siteBody(region), bearer(token)),
      stack.client().post('/v1/sites', siteBody(region), bearer(token)),
    ]);
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
  it("gives another team's site id 404, and a viewer 403 on creation and deletion", async () => {
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
    expect((await stack.client().get('/v1/entitlements', bearer(token))).body.data).toMatchObject({
      team_id: owner.teamId,
      plan: 'starter',
      max_sites: 2,
      environment_memory_bytes: 512 * 1024 ** 2,
    });
    const attempt = await stack
      .client()
      .request('PUT', `/v1/admin/teams/${owner.teamId}/entitlements`, { json: { plan: 'huge', max_sites: 1000, max_disk_bytes: 1 }, ...bearer(token) });
    expect(attempt.status).toBe(404);
    const none = await teamWithPlan(null);
    expect((await stack.client().get('/v1/entitlements', bearer(none.token))).status).toBe(404);
  });
});

describe('environments, pushes, clones and changes as planned operations', () => {
  /** A team with an active site on a node of its own region (as if site.create had run). */
  async function activeSite(plan: { max_sites: number; max_disk_bytes?: number } = { max_sites: 5 }) {
    const region = unique('region');
    await onlineNode(region);
    const team = await teamWithPlan(plan);
    const created = await stack.client().post('/v1/sites', siteBody(region), bearer(team.token));
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const siteId = created.body.data.site.id as number;
    await stack.ctx.db('operations').where({ id: created.body.data.operation.id }).update({ status: 'succeeded', finished_at: new Date() });
    await stack.ctx.db('sites').where({ id: siteId }).update({ status: 'active' });
    await stack.ctx.db('environments').where({ site_id: siteId }).update({ status: 'active' });
    return { ...team, siteId, production: (await Environment.query(stack.ctx.db).findOne({ site_id: siteId }))! };
  }

  it("plans staging as a copy of production on its node, holding both environments' keys; a second staging is 409", async () => {
    const { token, siteId, production } = await activeSite();
    const reply = await stack.client().post(`/v1/sites/${siteId}/environments`, { kind: 'staging' }, bearer(token));
    expect(reply.status, JSON.stringify(reply.body)).toBe(202);
    const { environment, operation } = reply.body.data;
    expect(environment).toMatchObject({
      kind: 'staging',
      status: 'creating',
      php_version: '8.2',
      domain: production.domain.replace('production-', 'staging-'),
      wordpress: null,
    });
    expect(operation).toMatchObject({
      kind: 'environment.create',
      target: { type: 'environment', id: String(environment.id) },
      input: { source_environment_id: production.id },
    });
    const row = await stack.ctx.db('operations').where({ id: operation.id }).first('serial_keys');
    expect(row.serial_keys.sort()).toEqual([`environment:${environment.id}`, `environment:${production.id}`].sort());
    expect((await Environment.query(stack.ctx.db).findById(environment.id))!.node_id).toBe(production.node_id);
    expect((await stack.client().post(`/v1/sites/${siteId}/environments`, { kind: 'staging' }, bearer(token))).status).toBe(409);
    // staging is still being made: it cannot be copied from yet
    const early = await stack.client().post(`/v1/sites/${siteId}/environments`, { kind: 'development', source: 'staging' }, bearer(token));
    expect(early.status).toBe(409);
    expect(early.body.error.message).toMatch(/creating, not active/);
  });

  it('reserves disk per environment: a plan without room for another answers 402', async () => {
    const { token, siteId } = await activeSite({ max_sites: 5, max_disk_bytes: 6 * 1024 ** 3 });
    const refused = await stack.client().post(`/v1/sites/${siteId}/environments`, { kind: 'development' }, bearer(token));
    expect(refused.status).toBe(402);
    expect(refused.body.error.details.limit).toBe('max_disk_bytes');
  });

  it('plans a push onto the target, a PHP change, a restart and a clone; refuses a PHP version it runs or does not offer', async () => {
    const { token, siteId, production } = await activeSite();
    await stack.client().post(`/v1/sites/${siteId}/environments`, { kind: 'staging' }, bearer(token));
    const staging = (await Environment.query(stack.ctx.db).findOne({ site_id: siteId, kind: 'staging' }))!;
    await stack.ctx.db('environments').where({ id: staging.id }).update({ status: 'active' });

    const push = await stack.client().post(`/v1/sites/${siteId}/environments/staging/push`, { target: 'production', files: false }, bearer(token));
    expect(push.status, JSON.stringify(push.body)).toBe(202);
    expect(push.body.data).toMatchObject({
      environment: { kind: 'production' },
      operation: {
        kind: 'environment.push',
        target: { id: String(production.id) },
        input: { source_environment_id: staging.id, files: false, database: true },
      },
    });
    expect(push.body.data.operation.steps.map((step: { name: string }) => step.name)).toEqual([
      'safety_repository',
      'safety_snapshot',
      'copy_files',
      'copy_database',
      'rewrite_urls',
      'inventory',
      'verify',
      'purge_cache',
      'safety_retention',
    ]);

    const php = await stack.client().request('PATCH', `/v1/sites/${siteId}/environments/staging`, { json: { php_version: '8.4' }, ...bearer(token) });
    expect(php.status, JSON.stringify(php.body)).toBe(202);
    expect(php.body.data.operation).toMatchObject({ kind: 'environment.php_change', input: { php_version: '8.4', previous_php_version: '8.2' } });
    // the change under way counts: asking for 8.4 again is a conflict, 8.2 is not yet what it runs then
    expect((await stack.client().request('PATCH', `/v1/sites/${siteId}/environments/staging`, { json: { php_version: '8.4' }, ...bearer(token) })).status).toBe(
      409,
    );
    expect(
      (await stack.client().request('PATCH', `/v1/sites/${siteId}/environments/production`, { json: { php_version: '8.2' }, ...bearer(token) })).status,
    ).toBe(409);
    const unknown = await stack.client().request('PATCH', `/v1/sites/${siteId}/environments/staging`, { json: { php_version: '7.0' }, ...bearer(token) });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details.fields[0].field).toBe('php_version');

    expect((await stack.client().post(`/v1/sites/${siteId}/environments/production/restart`, undefined, bearer(token))).body.data.operation.kind).toBe(
      'environment.restart',
    );
    const clone = await stack.client().post(`/v1/sites/${siteId}/clone`, { name: 'Copy of it', source: 'staging' }, bearer(token));
    expect(clone.status, JSON.stringify(clone.body)).toBe(202);
    expect(clone.body.data.site).toMatchObject({
      name: 'Copy of it',
      slug: 'copy-of-it',
      cloned_from_site_id: siteId,
      environments: [{ kind: 'production', status: 'creating' }],
    });
    expect(clone.body.data.operation).toMatchObject({ kind: 'site.clone', input: { source_environment_id: staging.id, source_site_id: siteId } });
    expect((await stack.client().post(`/v1/sites/${siteId}/clone`, { name: 'Copy of it' }, bearer(token))).status).toBe(409);
  });

  it("renames a site; refuses changes to a site being deleted (409) and to another team's (404)", async () => {
    const { token, siteId } = await activeSite();
    const renamed = await stack.client().request('PATCH', `/v1/sites/${siteId}`, { json: { name: 'New name' }, ...bearer(token) });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ id: siteId, name: 'New name' });
    expect((await stack.client().request('PATCH', `/v1/sites/${siteId}`, { json: { slug: 'other' }, ...bearer(token) })).status).toBe(422);
    const other = await teamWithPlan({ max_sites: 5 });
    expect((await stack.client().request('PATCH', `/v1/sites/${siteId}`, { json: { name: 'Mine' }, ...bearer(other.token) })).status).toBe(404);
    expect((await stack.client().get(`/v1/sites/${siteId}/environments/production/wordpress`, bearer(other.token))).status).toBe(404);

    const deleting = await stack.client().request('DELETE', `/v1/sites/${siteId}`, bearer(token));
    expect(deleting.status).toBe(202);
    for (const reply of [
      await stack.client().request('PATCH', `/v1/sites/${siteId}`, { json: { name: 'Too late' }, ...bearer(token) }),
      await stack.client().post(`/v1/sites/${siteId}/environments`, { kind: 'staging' }, bearer(token)),
      await stack.client().post(`/v1/sites/${siteId}/environments/production/restart`, undefined, bearer(token)),
      await stack.client().post(`/v1/sites/${siteId}/environments/production/wordpress/refresh`, undefined, bearer(token)),
    ])
      expect(reply.status, JSON.stringify(reply.body)).toBe(409);
  });

  it("caps each new environment's memory as the plan says when it is made; existing ones keep theirs", async () => {
    const { owner, token, siteId, production } = await activeSite();
    expect(Number(production.memory_limit_bytes)).toBe(512 * 1024 ** 2);
    const raised = await stack.client().request('PUT', `/v1/admin/teams/${owner.teamId}/entitlements`, {
      json: { plan: 'pro', max_sites: 5, max_disk_bytes: 100 * 1024 ** 3, environment_memory_bytes: 1024 ** 3 },
      ...bearer(operatorToken),
    });
    expect(raised.body.data).toMatchObject({ plan: 'pro', environment_memory_bytes: 1024 ** 3, backups_scheduled_keep: 14, backups_manual_keep: 10 });
    const staging = await stack.client().post(`/v1/sites/${siteId}/environments`, { kind: 'staging' }, bearer(token));
    expect(staging.body.data.environment.memory_limit_bytes).toBe(1024 ** 3);
    expect((await stack.client().get(`/v1/sites/${siteId}/environments/production`, bearer(token))).body.data.memory_limit_bytes).toBe(512 * 1024 ** 2);
    const tiny = await stack.client().request('PUT', `/v1/admin/teams/${owner.teamId}/entitlements`, {
      json: { plan: 'pro', max_sites: 5, max_disk_bytes: 1, environment_memory_bytes: 1024 },
      ...bearer(operatorToken),
    });
    expect(tiny.status).toBe(422);
    expect(tiny.body.error.details.fields[0].field).toBe('environment_memory_bytes');
    const retention = await stack.client().request('PUT', `/v1/admin/teams/${owner.teamId}/entitlements`, {
      json: { plan: 'pro', max_sites: 5, max_disk_bytes: 100 * 1024 ** 3, backups_scheduled_keep: 30, backups_manual_keep: 0 },
      ...bearer(operatorToken),
    });
    expect(retention.status).toBe(422);
    expect(retention.body.error.details.fields[0].field).toBe('backups_manual_keep');
    const kept = await stack.client().request('PUT', `/v1/admin/teams/${owner.teamId}/entitlements`, {
      json: { plan: 'pro', max_sites: 5, max_disk_bytes: 100 * 1024 ** 3, backups_scheduled_keep: 30, backups_manual_keep: 3 },
      ...bearer(operatorToken),
    });
    expect(kept.body.data).toMatchObject({ backups_scheduled_keep: 30, backups_manual_keep: 3 });
  });

  it('shows the PHP versions offered, and a null inventory before the first reading', async () => {
    const { token, siteId } = await activeSite();
    expect((await stack.client().get('/v1/sites/php-versions', bearer(token))).body.data).toEqual({ versions: ['8.2', '8.4'], default: '8.2' });
    expect((await stack.client().get(`/v1/sites/${siteId}/environments/production/wordpress`, bearer(token))).body.data).toBeNull();
    expect((await stack.client().get(`/v1/sites/${siteId}/environments/production/plugins`, bearer(token))).body).toMatchObject({
      data: [],
      pagination: { total: 0 },
    });
  });

  it('gives a viewer the reads and 403 on every change, naming the permission', async () => {
    const { owner, siteId } = await activeSite();
    const viewerRole = await stack.ctx.db('roles').whereNull('team_id').where({ name: 'viewer' }).first('id');
    const viewer = await createOwner(stack.ctx.db);
    await stack.ctx.db('memberships').insert({ team_id: owner.teamId, user_id: viewer.userId, role_id: viewerRole.id, status: 'ACTIVE' });
    const viewerToken = await accessTokenOf(stack.client(), { ...viewer, teamId: owner.teamId });
    expect((await stack.client().get(`/v1/sites/${siteId}/environments`, bearer(viewerToken))).status).toBe(200);
    const refusals: Array<[string, string, unknown, string]> = [
      ['POST', `/v1/sites/${siteId}/environments`, { kind: 'staging' }, 'sites:update'],
      ['POST', `/v1/sites/${siteId}/environments/production/push`, { target: 'staging' }, 'sites:push'],
      ['POST', `/v1/sites/${siteId}/clone`, { name: 'x' }, 'sites:create'],
      ['DELETE', `/v1/sites/${siteId}/environments/staging`, undefined, 'sites:delete'],
      ['POST', `/v1/sites/${siteId}/environments/production/plugins`, { upload_id: '00000000-0000-4000-8000-000000000000' }, 'wordpress:install'],
      ['DELETE', `/v1/sites/${siteId}/environments/production/themes/twentytwentyfive`, undefined, 'wordpress:delete'],
    ];
    for (const [method, path, json, permission] of refusals) {
      const reply = await stack.client().request(method, path, { ...(json === undefined ? {} : { json }), ...bearer(viewerToken) });
      expect(reply.status, `${method} ${path}`).toBe(403);
      expect(reply.body.error.details.permission).toBe(permission);
    }
  });
});
