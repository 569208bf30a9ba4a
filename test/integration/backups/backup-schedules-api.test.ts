import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackupSchedule } from '../../../shared/db/models.ts';
import { accessTokenOf, createOwner, unique, type TestUser } from '../../helpers/factories.ts';
import type { Reply } from '../../helpers/client.ts';
import { holdLockAlone } from '../../helpers/lock-barrier.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { addMember, call, failedFields } from '../../helpers/team-members.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ workers: false });
});
afterAll(async () => {
  await stack?.stop();
});

/** A team's site with an active production environment, as rows (on a node that exists only as a row). */
async function siteOf(owner: TestUser): Promise<{ siteId: number; environmentId: number }> {
  const db = stack.ctx.db;
  const [node] = await db('nodes')
    .insert({ name: unique('node'), region: unique('region'), public_address: '127.0.0.1', ssh_host: '127.0.0.1', ssh_user: 'root', status: 'online' })
    .returning('id');
  const slug = unique('s').slice(0, 20);
  const [site] = await db('sites').insert({ team_id: owner.teamId, name: slug, slug, region: 'test', status: 'active' }).returning('id');
  const [environment] = await db('environments')
    .insert({
      site_id: site.id,
      team_id: owner.teamId,
      kind: 'production',
      node_id: node.id,
      php_version: '8.2',
      domain: `${slug}.test`,
      status: 'active',
      db_name: `wp_${slug}`,
      db_user: `wp_${slug}`,
      db_password_sealed: 'x',
      disk_quota_bytes: 1,
    })
    .returning('id');
  return { siteId: site.id, environmentId: environment.id };
}

const schedulesOf = (siteId: number, kind = 'production') => `/v1/sites/${siteId}/environments/${kind}/backup-schedules`;

describe('backup schedules (/v1/sites/{id}/environments/{env}/backup-schedules)', () => {
  it('creates, lists, reads, changes and deletes a schedule, next_run_at the next slot in its zone', async () => {
    const owner = await createOwner(stack.ctx.db);
    const { siteId, environmentId } = await siteOf(owner);
    const token = await accessTokenOf(stack.client(), owner);
    const client = stack.client();
    const before = Date.now();

    const created = await call(client, 'POST', schedulesOf(siteId), token, { cron: '30 2 * * *', timezone: 'Europe/Berlin' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const schedule = created.body.data;
    expect(schedule).toMatchObject({ environment_id: environmentId, cron: '30 2 * * *', timezone: 'Europe/Berlin', enabled: true, last_slot_at: null });
    expect(created.headers.get('location')).toBe(`${schedulesOf(siteId)}/${schedule.id}`);
    const next = new Date(schedule.next_run_at);
    expect(next.getTime()).toBeGreaterThan(before);
    expect(next.getTime() - before).toBeLessThanOrEqual(25 * 3600_000);
    // 02:30 on the Berlin clock, whatever the season
    expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit' }).format(next)).toBe('02:30');

    const utc = await call(client, 'POST', schedulesOf(siteId), token, { cron: '0 * * * *' });
    expect(utc.body.data).toMatchObject({ timezone: 'UTC', cron: '0 * * * *' });
    expect(new Date(utc.body.data.next_run_at).getUTCMinutes()).toBe(0);

    const list = await call(client, 'GET', `${schedulesOf(siteId)}?page_size=1`, token);
    expect(list.status).toBe(200);
    expect(list.body.data.map((entry: { id: number }) => entry.id)).toEqual([schedule.id]);
    expect(list.body.pagination).toEqual({ page: 1, page_size: 1, total: 2, total_pages: 2 });
    const second = await call(client, 'GET', `${schedulesOf(siteId)}?page=2&page_size=1`, token);
    expect(second.body.data.map((entry: { id: number }) => entry.id)).toEqual([utc.body.data.id]);

    expect((await call(client, 'GET', `${schedulesOf(siteId)}/${schedule.id}`, token)).body.data).toEqual(schedule);

    // disabling keeps the row and its pending slot; enabling again starts from the next slot after now
    const paused = await call(client, 'PATCH', `${schedulesOf(siteId)}/${schedule.id}`, token, { enabled: false });
    expect(paused.status).toBe(200);
    expect(paused.body.data).toMatchObject({ enabled: false, next_run_at: null, cron: '30 2 * * *' });
    expect((await BackupSchedule.query(stack.ctx.db).findById(schedule.id))!.next_run_at.toISOString()).toBe(schedule.next_run_at);
    const weekly = await call(client, 'PATCH', `${schedulesOf(siteId)}/${schedule.id}`, token, {
      cron: '0 4 * * 1',
      timezone: 'America/New_York',
      enabled: true,
    });
    expect(weekly.status).toBe(200);
    expect(weekly.body.data).toMatchObject({ enabled: true, cron: '0 4 * * 1', timezone: 'America/New_York' });
    const monday = new Date(weekly.body.data.next_run_at);
    expect(
      new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'short', hour: '2-digit', minute: '2-digit', hour12: false }).format(monday),
    ).toBe('Mon 04:00');

    const deleted = await call(client, 'DELETE', `${schedulesOf(siteId)}/${schedule.id}`, token);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.id).toBe(schedule.id);
    expect((await call(client, 'GET', `${schedulesOf(siteId)}/${schedule.id}`, token)).status).toBe(404);
    expect((await call(client, 'DELETE', `${schedulesOf(siteId)}/${schedule.id}`, token)).status).toBe(404);
    expect((await call(client, 'GET', schedulesOf(siteId), token)).body.pagination.total).toBe(1);

    const trail = await call(client, 'GET', '/v1/activity?action=backup_schedule.*', token);
    expect(
      trail.body.data.map((entry: { action: string; status: number; target: { type: string; id: string } }) => [entry.action, entry.status, entry.target.id]),
    ).toEqual([
      ['backup_schedule.deleted', 404, String(schedule.id)],
      ['backup_schedule.deleted', 200, String(schedule.id)],
      ['backup_schedule.updated', 200, String(schedule.id)],
      ['backup_schedule.updated', 200, String(schedule.id)],
      ['backup_schedule.created', 201, String(utc.body.data.id)],
      ['backup_schedule.created', 201, String(schedule.id)],
    ]);
    expect(trail.body.data[0].target.type).toBe('backup_schedule');
  });

  it('names the failing field in a 422: bad cron, every minute, seconds, unknown zone, unknown keys', async () => {
    const owner = await createOwner(stack.ctx.db);
    const { siteId } = await siteOf(owner);
    const token = await accessTokenOf(stack.client(), owner);
    const client = stack.client();
    const cases: Array<[Record<string, unknown>, string[], RegExp]> = [
      [{ cron: 'every day at noon' }, ['cron'], /5 fields/],
      [{ cron: '61 2 * * *' }, ['cron'], /not a valid cron expression/],
      [{ cron: '* * * * *' }, ['cron'], /more than once an hour/],
      [{ cron: '*/10 * * * *' }, ['cron'], /more than once an hour/],
      [{ cron: '0 30 2 * * *' }, ['cron'], /seconds are not supported/],
      [{ cron: '0 3 * * *', timezone: 'Mars/Olympus_Mons' }, ['timezone'], /IANA/],
      [{ cron: '* * * * *', timezone: 'CEST+2' }, ['timezone', 'cron'], /./],
      [{ cron: 42 }, ['cron'], /./],
      [{ timezone: 'UTC' }, ['cron'], /./],
      [{ cron: '0 3 * * *', colour: 'blue' }, ['colour'], /not a known field/],
    ];
    for (const [body, fields, message] of cases) {
      const reply = await call(client, 'POST', schedulesOf(siteId), token, body);
      expect(reply.status, JSON.stringify(body)).toBe(422);
      expect(reply.body.error.code).toBe('VALIDATION_ERROR');
      expect(failedFields(reply).sort(), JSON.stringify(body)).toEqual([...fields].sort());
      const messages = (reply.body.error.details.fields as Array<{ message: string }>).map((problem) => problem.message).join('; ');
      expect(messages, JSON.stringify(body)).toMatch(message);
    }
    const created = await call(client, 'POST', schedulesOf(siteId), token, { cron: '0 3 * * *' });
    const path = `${schedulesOf(siteId)}/${created.body.data.id}`;
    const everyMinute = await call(client, 'PATCH', path, token, { cron: '* * * * *' });
    expect(everyMinute.status).toBe(422);
    expect(failedFields(everyMinute)).toEqual(['cron']);
    expect(failedFields(await call(client, 'PATCH', path, token, { timezone: 'Nowhere/Zone' }))).toEqual(['timezone']);
    expect((await call(client, 'PATCH', path, token, {})).status).toBe(422);
    expect((await call(client, 'GET', path, token)).body.data).toMatchObject({ cron: '0 3 * * *', timezone: 'UTC' });
    expect((await call(client, 'GET', schedulesOf(siteId), token)).body.pagination.total).toBe(1);
  });

  it('holds at most 5 schedules per environment (409), even when created at once', async () => {
    const owner = await createOwner(stack.ctx.db);
    const { siteId, environmentId } = await siteOf(owner);
    const token = await accessTokenOf(stack.client(), owner);
    const client = stack.client();
    // every creation locks the environment's row before it counts: held here until all eight wait on it
    const barrier = await holdLockAlone((trx) => trx('environments').where({ id: environmentId }).forUpdate().first('id'));
    let replies: Reply[];
    try {
      const posting = Promise.all(Array.from({ length: 8 }, (_, hour) => call(client, 'POST', schedulesOf(siteId), token, { cron: `0 ${hour} * * *` })));
      await barrier.untilWaiting(8, 'schedule creations');
      expect(await BackupSchedule.query(stack.ctx.db).where({ environment_id: environmentId }).resultSize()).toBe(0);
      await barrier.release();
      replies = await posting;
    } finally {
      await barrier.release();
    }
    expect(replies.map((reply) => reply.status).sort()).toEqual([201, 201, 201, 201, 201, 409, 409, 409]);
    expect(await BackupSchedule.query(stack.ctx.db).where({ environment_id: environmentId }).resultSize()).toBe(5);
    expect(replies.find((reply) => reply.status === 409)!.body.error.message).toMatch(/at most 5/);
  });

  it("answers 404 for another team's site, environment or schedule, and for an environment the site lacks", async () => {
    const ann = await createOwner(stack.ctx.db);
    const bob = await createOwner(stack.ctx.db);
    const annSite = await siteOf(ann);
    const bobSite = await siteOf(bob);
    const annToken = await accessTokenOf(stack.client(), ann);
    const bobToken = await accessTokenOf(stack.client(), bob);
    const client = stack.client();
    const annSchedule = (await call(client, 'POST', schedulesOf(annSite.siteId), annToken, { cron: '0 1 * * *' })).body.data.id;
    const bobSchedule = (await call(client, 'POST', schedulesOf(bobSite.siteId), bobToken, { cron: '0 1 * * *' })).body.data.id;

    // Bob's token on Ann's site, and Bob's schedule id under Bob's path but read by Ann via her site
    for (const [method, path, body] of [
      ['GET', schedulesOf(annSite.siteId), undefined],
      ['POST', schedulesOf(annSite.siteId), { cron: '0 2 * * *' }],
      ['GET', `${schedulesOf(annSite.siteId)}/${annSchedule}`, undefined],
      ['PATCH', `${schedulesOf(annSite.siteId)}/${annSchedule}`, { enabled: false }],
      ['DELETE', `${schedulesOf(annSite.siteId)}/${annSchedule}`, undefined],
    ] as const) {
      const reply = await call(client, method, path, bobToken, body);
      expect(reply.status, `${method} ${path}`).toBe(404);
      expect(reply.body.error.code).toBe('NOT_FOUND');
    }
    for (const method of ['GET', 'DELETE'] as const) {
      expect((await call(client, method, `${schedulesOf(annSite.siteId)}/${bobSchedule}`, annToken)).status).toBe(404);
    }
    expect((await call(client, 'GET', schedulesOf(annSite.siteId, 'staging'), annToken)).status).toBe(404);
    expect((await call(client, 'GET', schedulesOf(annSite.siteId, 'nonsense'), annToken)).status).toBe(404);
    expect((await call(client, 'GET', `${schedulesOf(annSite.siteId)}/not-a-number`, annToken)).status).toBe(404);
    expect((await call(client, 'GET', `${schedulesOf(annSite.siteId)}/${annSchedule}`, annToken)).body.data.enabled).toBe(true);
    expect((await BackupSchedule.query(stack.ctx.db).where({ environment_id: annSite.environmentId })).length).toBe(1);
  });

  it('lets a viewer read schedules but not create, change or delete them (backups:update)', async () => {
    const owner = await createOwner(stack.ctx.db);
    const { siteId } = await siteOf(owner);
    const viewer = await addMember(stack.ctx.db, owner, 'viewer');
    const developer = await addMember(stack.ctx.db, owner, 'developer');
    const client = stack.client();
    const viewerToken = await accessTokenOf(client, viewer);
    const developerToken = await accessTokenOf(client, developer);
    const created = await call(client, 'POST', schedulesOf(siteId), developerToken, { cron: '0 5 * * *' });
    expect(created.status).toBe(201);
    const path = `${schedulesOf(siteId)}/${created.body.data.id}`;

    expect((await call(client, 'GET', schedulesOf(siteId), viewerToken)).status).toBe(200);
    expect((await call(client, 'GET', path, viewerToken)).status).toBe(200);
    for (const [method, target, body] of [
      ['POST', schedulesOf(siteId), { cron: '0 6 * * *' }],
      ['PATCH', path, { enabled: false }],
      ['DELETE', path, undefined],
    ] as const) {
      const refused = await call(client, method, target, viewerToken, body);
      expect(refused.status, method).toBe(403);
      expect(refused.body.error.details).toMatchObject({ reason: 'missing_permission', permission: 'backups:update' });
    }
    expect((await call(client, 'GET', path, viewerToken)).body.data.enabled).toBe(true);
    expect((await call(client, 'GET', schedulesOf(siteId), viewerToken)).body.pagination.total).toBe(1);
  });
});
