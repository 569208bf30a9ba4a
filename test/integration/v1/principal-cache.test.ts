import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrincipalCache } from '../../../shared/domains/auth/principal-cache.ts';
import { bearer } from '../../helpers/client.ts';
import { accessTokenOf, createOwner, type TestUser } from '../../helpers/factories.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';

/**
 * Each API process keeps the /v1 callers it verified (shared/domains/auth/principal-cache.ts). Two
 * stacks (two API instances, each with its own cache and LISTEN connection, on one database) stand
 * for two processes: a change made through one, or straight in the database, must reach the other.
 * Each case first shows the other instance really keeps the caller, then waits for that instance to
 * hear the change (its notification, not the TTL: `onChange` fires only for notifications), and
 * then finds its next request refused or answered afresh. The time from the change's commit to the
 * other instance dropping the caller is printed; the documented bound is one notification's delivery.
 */
let a: Stack;
let b: Stack;
let owner: TestUser;

beforeAll(async () => {
  // one deployment: both processes sign and verify with the same keys, and share Redis (the session-state cache)
  const env = {
    REDIS_PREFIX: `test-principals-${randomBytes(6).toString('hex')}`,
    JWT_PRIVATE_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    SECRET_KEY: randomBytes(32).toString('base64'),
  };
  [a, b] = await Promise.all([startStack({ workers: false, env }), startStack({ workers: false, env })]);
  owner = await createOwner(a.ctx.db);
  await until(() => a.api.principals.listening && b.api.principals.listening);
});
afterAll(async () => {
  await a?.stop();
  await b?.stop();
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Resolves with the ms from now until `cache` hears a change of `tag`. */
function heard(cache: PrincipalCache, tag: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    const stop = cache.onChange((changed) => {
      if (changed !== tag) return;
      stop();
      resolve(performance.now() - started);
    });
  });
}

const sessionIdOf = (accessToken: string) => JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()).sid as string;

/** A second user, a member of `owner`'s team with `roleName` (a built-in role), and their bearer token there. */
async function memberOfOwnersTeam(roleName: string): Promise<{ user: TestUser; token: string }> {
  const user = await createOwner(a.ctx.db);
  const role = await a.ctx.db('roles').whereNull('team_id').where({ name: roleName }).first('id');
  await a.ctx.db('memberships').insert({ team_id: owner.teamId, user_id: user.userId, role_id: role.id, status: 'ACTIVE' });
  return { user, token: await accessTokenOf(a.client(), { ...user, teamId: owner.teamId }) };
}

describe('the principal cache across API processes', () => {
  it('ends a session on the other process once it hears the revocation', async () => {
    const token = await accessTokenOf(a.client(), owner);
    const other = await accessTokenOf(a.client(), owner);
    const sessionId = sessionIdOf(token);
    expect((await b.client().get('/v1/me', bearer(token))).status).toBe(200);
    expect(b.api.principals.holds(`session:${sessionId}`)).toBe(true);

    const dropped = heard(b.api.principals, `session:${sessionId}`);
    const revoked = await a.client().request('DELETE', `/v1/sessions/${sessionId}`, bearer(other));
    expect(revoked.status).toBe(200);
    console.log(`session revocation heard by the other process ${(await dropped).toFixed(1)} ms after the request was sent`);
    expect(b.api.principals.holds(`session:${sessionId}`)).toBe(false);
    expect((await b.client().get('/v1/me', bearer(token))).status).toBe(401);
  });

  it('refuses a revoked API token on the other process once it hears the revocation', async () => {
    const access = await accessTokenOf(a.client(), owner);
    const created = await a.client().post('/v1/api-tokens', { name: 'cached', permissions: ['*'] }, bearer(access));
    expect(created.status).toBe(201);
    const { id, token } = created.body.data as { id: number; token: string };
    expect((await b.client().get('/v1/me', bearer(token))).status).toBe(200);
    expect(b.api.principals.holds(`api_token:${id}`)).toBe(true);

    const dropped = heard(b.api.principals, `api_token:${id}`);
    expect((await a.client().request('DELETE', `/v1/api-tokens/${id}`, bearer(access))).status).toBe(200);
    console.log(`API token revocation heard by the other process ${(await dropped).toFixed(1)} ms after the request was sent`);
    expect((await b.client().get('/v1/me', bearer(token))).status).toBe(401);
  });

  it('sync() returns only once every change committed before it was heard (what a writer outside the API waits for)', async () => {
    const member = await memberOfOwnersTeam('viewer');
    expect((await b.client().get('/v1/me', bearer(member.token))).status).toBe(200);
    expect(b.api.principals.holds(`user:${member.user.userId}`)).toBe(true);
    const developer = await a.ctx.db('roles').whereNull('team_id').where({ name: 'developer' }).first('id');
    await a.ctx.db('memberships').where({ user_id: member.user.userId, team_id: owner.teamId }).update({ role_id: developer.id });
    await b.api.principals.sync();
    // no wait for the notification here: sync's own came back after it
    expect(b.api.principals.holds(`user:${member.user.userId}`)).toBe(false);
  });

  it("answers with a member's new role on the other process once it hears the change, whoever made it", async () => {
    const member = await memberOfOwnersTeam('viewer');
    const before = await b.client().get('/v1/me', bearer(member.token));
    expect(before.body.data.role_name).toBe('viewer');
    expect(b.api.principals.holds(`user:${member.user.userId}`)).toBe(true);

    // straight in the database (as an admin's psql would): the trigger notifies all the same
    const admin = await a.ctx.db('roles').whereNull('team_id').where({ name: 'admin' }).first('id');
    const dropped = heard(b.api.principals, `user:${member.user.userId}`);
    await a.ctx.db('memberships').where({ team_id: owner.teamId, user_id: member.user.userId }).update({ role_id: admin.id });
    console.log(`role change heard by the other process ${(await dropped).toFixed(1)} ms after the update was sent`);
    const after = await b.client().get('/v1/me', bearer(member.token));
    expect(after.status).toBe(200);
    expect(after.body.data.role_name).toBe('admin');
  });

  it("grants what a role's new permissions grant on the other process once it hears the change", async () => {
    const role = await a.ctx
      .db('roles')
      .insert({ team_id: owner.teamId, name: `narrow-${Date.now()}`, permissions: ['sites:read'] })
      .returning('id');
    const member = await memberOfOwnersTeam('viewer');
    await a.ctx.db('memberships').where({ team_id: owner.teamId, user_id: member.user.userId }).update({ role_id: role[0].id });
    await until(() => !b.api.principals.holds(`user:${member.user.userId}`));
    expect((await b.client().get('/v1/me', bearer(member.token))).body.data.permissions).toEqual(['sites:read']);
    expect(b.api.principals.holds(`role:${role[0].id}`)).toBe(true);

    const dropped = heard(b.api.principals, `role:${role[0].id}`);
    await a.ctx
      .db('roles')
      .where({ id: role[0].id })
      .update({ permissions: ['sites:read', 'backups:read'] });
    console.log(`role permissions change heard by the other process ${(await dropped).toFixed(1)} ms after the update was sent`);
    expect((await b.client().get('/v1/me', bearer(member.token))).body.data.permissions).toEqual(['sites:read', 'backups:read']);
  });

  it('refuses a removed member on the other process once it hears the removal', async () => {
    const member = await memberOfOwnersTeam('developer');
    expect((await b.client().get('/v1/me', bearer(member.token))).status).toBe(200);
    expect(b.api.principals.holds(`user:${member.user.userId}`)).toBe(true);

    const dropped = heard(b.api.principals, `user:${member.user.userId}`);
    const ownerToken = await accessTokenOf(a.client(), owner);
    const removed = await a.client().request('DELETE', `/v1/teams/${owner.teamId}/members/${member.user.userId}`, bearer(ownerToken));
    expect(removed.status).toBe(200);
    console.log(`member removal heard by the other process ${(await dropped).toFixed(1)} ms after the request was sent`);
    expect((await b.client().get('/v1/me', bearer(member.token))).status).toBe(401);
  });

  it('keeps nothing while its LISTEN connection is down, so no change can be missed', async () => {
    const token = await accessTokenOf(a.client(), owner);
    expect((await b.client().get('/v1/me', bearer(token))).status).toBe(200);
    expect(b.api.principals.size).toBeGreaterThan(0);
    // end the cache's own connection from the server side, as a Postgres restart would
    await a.ctx.db.raw("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'berth-principals' AND datname = current_database()");
    await until(() => !b.api.principals.listening);
    expect(b.api.principals.size).toBe(0);
    expect((await b.client().get('/v1/me', bearer(token))).status).toBe(200);
    expect(b.api.principals.size).toBe(0);
    await until(() => b.api.principals.listening && a.api.principals.listening);
  });
});
