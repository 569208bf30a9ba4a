import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type Reply } from '../../helpers/client.ts';
import { accessTokenOf, createOwner, signIn, unique, type TestUser } from '../../helpers/factories.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { setBuiltinRole } from '../../helpers/team-members.ts';

const DAY_MS = 24 * 3600 * 1000;

let stack: Stack;

/** Gives the user a custom role of their team with exactly these grants. */
async function setCustomRole(user: TestUser, permissions: string[]): Promise<void> {
  const [role] = await stack.ctx
    .db('roles')
    .insert({ team_id: user.teamId, name: `custom-${Math.random().toString(36).slice(2)}`, permissions })
    .returning('id');
  await stack.ctx.db('memberships').where({ user_id: user.userId, team_id: user.teamId }).update({ role_id: role.id });
}

function createToken(credential: string, body: unknown): Promise<Reply> {
  return stack.client().post('/v1/api-tokens', body, bearer(credential));
}

/** A fresh owner, their access token, and an API token they created with these grants. */
async function ownerWithToken(permissions: string[], extra: Record<string, unknown> = {}) {
  const owner = await createOwner(stack.ctx.db);
  const access = await accessTokenOf(stack.client(), owner);
  const created = await createToken(access, { name: 'CI', permissions, ...extra });
  expect(created.status).toBe(201);
  return { owner, access, secret: created.body.data.token as string, id: created.body.data.id as number };
}

function expectAuthenticationError(reply: Reply): void {
  expect(reply.status).toBe(401);
  expect(reply.body.error.code).toBe('AUTHENTICATION_ERROR');
}

function expectMissing(reply: Reply, permission: string): void {
  expect(reply.status).toBe(403);
  expect(reply.body.error.code).toBe('AUTHORIZATION_ERROR');
  expect(reply.body.error.details.permission).toBe(permission);
}

beforeAll(async () => {
  stack = await startStack({ workers: false });
});
afterAll(async () => {
  await stack?.stop();
});

describe('POST /v1/api-tokens', () => {
  it('answers the secret once, with a recognisable prefix, and stores only its SHA-256', async () => {
    const owner = await createOwner(stack.ctx.db);
    const access = await accessTokenOf(stack.client(), owner);
    const before = Date.now();
    const created = await createToken(access, { name: '  Deploy bot ', permissions: ['sites:read', 'backups:*'] });
    const after = Date.now();
    expect(created.status).toBe(201);
    const data = created.body.data;
    expect(data.token).toMatch(/^berth_pat_[A-Za-z0-9_-]{43}$/);
    expect(data).toMatchObject({
      name: 'Deploy bot',
      prefix: data.token.slice(0, 18),
      permissions: ['sites:read', 'backups:*'],
      last_used_at: null,
      last_used_ip: null,
      revoked_at: null,
      created_by: { user_id: owner.userId, name: owner.name },
    });
    // Without expires_in_days: 90 days from creation.
    expect(Date.parse(data.expires_at)).toBeGreaterThanOrEqual(before + 90 * DAY_MS - 1000);
    expect(Date.parse(data.expires_at)).toBeLessThanOrEqual(after + 90 * DAY_MS + 1000);

    const row = await stack.ctx.db('api_tokens').where({ id: data.id }).first();
    expect(row.token_hash).toBe(createHash('sha256').update(data.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(data.token.slice(18));
    expect(row).toMatchObject({ team_id: owner.teamId, created_by_user_id: owner.userId, prefix: data.prefix });

    const listed = await stack.client().get('/v1/api-tokens', bearer(access));
    const fetched = await stack.client().get(`/v1/api-tokens/${data.id}`, bearer(access));
    for (const reply of [listed, fetched]) {
      expect(reply.status).toBe(200);
      expect(JSON.stringify(reply.body)).not.toContain(data.token.slice(18));
    }
    const { token: _secret, ...shown } = data;
    expect(listed.body.data).toEqual([shown]);
    expect(fetched.body.data).toEqual(shown);
  });

  it('authenticates as its creator in its team on GET /v1/me, and records when and where it was last used', async () => {
    const { owner, access, secret, id } = await ownerWithToken(['sites:read']);
    const me = await stack.client().get('/v1/me', bearer(secret));
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ user_id: owner.userId, team_id: owner.teamId, role_name: 'owner' });

    const used = (await stack.client().get(`/v1/api-tokens/${id}`, bearer(access))).body.data;
    expect(used.last_used_at).not.toBeNull();
    expect(used.last_used_ip).toBe('127.0.0.1');
    // At most one write a minute per token: a second use within the minute leaves it as it was.
    await stack.ctx.db('api_tokens').where({ id }).update({ last_used_ip: '192.0.2.1' });
    expect((await stack.client().get('/v1/me', bearer(secret))).status).toBe(200);
    expect(await stack.ctx.db('api_tokens').where({ id }).first('last_used_ip')).toEqual({ last_used_ip: '192.0.2.1' });
  });

  it('takes expires_in_days, or null for a token that never expires', async () => {
    const owner = await createOwner(stack.ctx.db);
    const access = await accessTokenOf(stack.client(), owner);
    const never = await createToken(access, { name: 'forever', permissions: ['sites:read'], expires_in_days: null });
    expect(never.status).toBe(201);
    expect(never.body.data.expires_at).toBeNull();
    const before = Date.now();
    const week = await createToken(access, { name: 'week', permissions: ['sites:read'], expires_in_days: 7 });
    expect(Date.parse(week.body.data.expires_at)).toBeGreaterThanOrEqual(before + 7 * DAY_MS - 1000);
    expect(Date.parse(week.body.data.expires_at)).toBeLessThanOrEqual(Date.now() + 7 * DAY_MS + 1000);
  });

  it.each([
    [{ name: '', permissions: ['sites:read'] }, 'name'],
    [{ name: 'x'.repeat(101), permissions: ['sites:read'] }, 'name'],
    [{ permissions: ['sites:read'] }, 'name'],
    [{ name: 'x', permissions: [] }, 'permissions'],
    [{ name: 'x' }, 'permissions'],
    [{ name: 'x', permissions: ['sites'] }, 'permissions.0'],
    [{ name: 'x', permissions: ['sites:read', 'Sites:*'] }, 'permissions.1'],
    [{ name: 'x', permissions: ['sites:read'], expires_in_days: 0 }, 'expires_in_days'],
    [{ name: 'x', permissions: ['sites:read'], expires_in_days: 366 }, 'expires_in_days'],
    [{ name: 'x', permissions: ['sites:read'], expires_in_days: 1.5 }, 'expires_in_days'],
  ])('answers 422 VALIDATION_ERROR naming the field for %j', async (body, field) => {
    const owner = await createOwner(stack.ctx.db);
    const reply = await createToken(await accessTokenOf(stack.client(), owner), body);
    expect(reply.status).toBe(422);
    expect(reply.body.error.code).toBe('VALIDATION_ERROR');
    expect(reply.body.error.details.fields.map((problem: { field: string }) => problem.field)).toContain(field);
  });

  it('refuses to grant what the creator does not hold: 403 AUTHORIZATION_ERROR naming the permission', async () => {
    const admin = await createOwner(stack.ctx.db);
    await setBuiltinRole(stack.ctx.db, admin, 'admin');
    const access = await accessTokenOf(stack.client(), admin);
    expectMissing(await createToken(access, { name: 'x', permissions: ['*'] }), '*');
    expectMissing(await createToken(access, { name: 'x', permissions: ['sites:read', 'billing:read'] }), 'billing:read');
    expect((await createToken(access, { name: 'x', permissions: ['sites:*', 'roles:*'] })).status).toBe(201);

    // A member who may create tokens but holds only sites:read cannot mint roles:* nor sites:*.
    const member = await createOwner(stack.ctx.db);
    await setCustomRole(member, ['api_tokens:create', 'sites:read']);
    const memberAccess = await accessTokenOf(stack.client(), member);
    expectMissing(await createToken(memberAccess, { name: 'x', permissions: ['roles:*'] }), 'roles:*');
    expectMissing(await createToken(memberAccess, { name: 'x', permissions: ['sites:*'] }), 'sites:*');
    expect((await createToken(memberAccess, { name: 'x', permissions: ['sites:read'] })).status).toBe(201);
    expect(await stack.ctx.db('api_tokens').where({ team_id: member.teamId }).select('permissions')).toEqual([{ permissions: ['sites:read'] }]);

    // The developer role does not include api_tokens:create at all.
    const developer = await createOwner(stack.ctx.db);
    await setBuiltinRole(stack.ctx.db, developer, 'developer');
    expectMissing(await createToken(await accessTokenOf(stack.client(), developer), { name: 'x', permissions: ['sites:read'] }), 'api_tokens:create');
  });

  it('lets an API token holding api_tokens:create create tokens within its own grants and its own expiry', async () => {
    const { secret } = await ownerWithToken(['api_tokens:create', 'sites:read'], { expires_in_days: 2 });
    const parent = await stack.ctx
      .db('api_tokens')
      .where({ token_hash: createHash('sha256').update(secret).digest('hex') })
      .first('expires_at');
    const parentExpiry = (parent.expires_at as Date).getTime();
    expectMissing(await createToken(secret, { name: 'x', permissions: ['sites:*'] }), 'sites:*');
    expectMissing(await createToken(secret, { name: 'x', permissions: ['api_tokens:read'] }), 'api_tokens:read');

    const tooLong = await createToken(secret, { name: 'x', permissions: ['sites:read'], expires_in_days: 30 });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.error.details.fields[0].field).toBe('expires_in_days');
    const never = await createToken(secret, { name: 'x', permissions: ['sites:read'], expires_in_days: null });
    expect(never.status).toBe(422);

    const defaulted = await createToken(secret, { name: 'child', permissions: ['sites:read'] });
    expect(defaulted.status).toBe(201);
    expect(Date.parse(defaulted.body.data.expires_at)).toBe(parentExpiry);
    const shorter = await createToken(secret, { name: 'child', permissions: ['sites:read'], expires_in_days: 1 });
    expect(shorter.status).toBe(201);
    expect((await stack.client().get('/v1/me', bearer(shorter.body.data.token))).status).toBe(200);
  });
});

describe('an API token as bearer', () => {
  it('is limited to its grants: sites:read alone cannot list tokens, api_tokens:read can', async () => {
    const { access } = await ownerWithToken(['sites:read']);
    const sitesOnly = (await createToken(access, { name: 'sites', permissions: ['sites:read'] })).body.data.token;
    expectMissing(await stack.client().get('/v1/api-tokens', bearer(sitesOnly)), 'api_tokens:read');
    expectMissing(await createToken(sitesOnly, { name: 'x', permissions: ['sites:read'] }), 'api_tokens:create');
    expect((await stack.client().get('/v1/permissions', bearer(sitesOnly))).status).toBe(200);

    const reader = (await createToken(access, { name: 'reader', permissions: ['api_tokens:read'] })).body.data.token;
    const listed = await stack.client().get('/v1/api-tokens', bearer(reader));
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(3);
    expectMissing(await stack.client().request('DELETE', `/v1/api-tokens/${listed.body.data[0].id}`, bearer(reader)), 'api_tokens:delete');
  });

  it('sees a role change of its creator at once: the role and the token must both allow', async () => {
    const { owner, secret } = await ownerWithToken(['api_tokens:read']);
    expect((await stack.client().get('/v1/api-tokens', bearer(secret))).status).toBe(200);
    await setBuiltinRole(stack.ctx.db, owner, 'developer');
    expectMissing(await stack.client().get('/v1/api-tokens', bearer(secret)), 'api_tokens:read');
    const me = await stack.client().get('/v1/me', bearer(secret));
    expect(me.body.data.role_name).toBe('developer');
    await setBuiltinRole(stack.ctx.db, owner, 'admin');
    expect((await stack.client().get('/v1/api-tokens', bearer(secret))).status).toBe(200);
  });

  it("dies with its creator's membership, and a new membership does not revive it", async () => {
    const { owner, secret, id } = await ownerWithToken(['sites:read']);
    const membership = await stack.ctx.db('memberships').where({ user_id: owner.userId, team_id: owner.teamId }).first();
    await stack.ctx.db('memberships').where({ id: membership.id }).delete();
    expectAuthenticationError(await stack.client().get('/v1/me', bearer(secret)));
    expect(await stack.ctx.db('api_tokens').where({ id }).first()).toBeUndefined();

    const { id: _id, ...again } = membership;
    await stack.ctx.db('memberships').insert(again);
    expectAuthenticationError(await stack.client().get('/v1/me', bearer(secret)));
  });

  it("answers 401 while its creator's membership is SUSPENDED", async () => {
    const { owner, secret } = await ownerWithToken(['sites:read']);
    const membership = stack.ctx.db('memberships').where({ user_id: owner.userId, team_id: owner.teamId });
    await membership.clone().update({ status: 'SUSPENDED' });
    expectAuthenticationError(await stack.client().get('/v1/me', bearer(secret)));
    await membership.clone().update({ status: 'ACTIVE' });
    expect((await stack.client().get('/v1/me', bearer(secret))).status).toBe(200);
  });

  it('answers 401 once expired', async () => {
    const { secret, id } = await ownerWithToken(['sites:read'], { expires_in_days: 1 });
    expect((await stack.client().get('/v1/me', bearer(secret))).status).toBe(200);
    await stack.ctx
      .db('api_tokens')
      .where({ id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expectAuthenticationError(await stack.client().get('/v1/me', bearer(secret)));
  });

  it('answers 401 for an unknown or malformed token with the marker, never trying it as an access token', async () => {
    expectAuthenticationError(await stack.client().get('/v1/me', bearer(`berth_pat_${'A'.repeat(43)}`)));
    expectAuthenticationError(await stack.client().get('/v1/me', bearer('berth_pat_')));
    // An access token behind the marker is not an API token, and is not verified as a JWT either.
    const owner = await createOwner(stack.ctx.db);
    expectAuthenticationError(await stack.client().get('/v1/me', bearer(`berth_pat_${await accessTokenOf(stack.client(), owner)}`)));
  });

  it('is not accepted by the auth surface, as bearer nor as the access cookie', async () => {
    const { secret } = await ownerWithToken(['*']);
    const asBearer = await stack.client().get('/api/v1/auth/me', bearer(secret));
    expect(asBearer.status).toBe(401);
    const asCookie = await stack.client().get('/api/v1/auth/me', { headers: { cookie: `svc_access=${secret}` } });
    expect(asCookie.status).toBe(401);
    // Nor as the /v1 access cookie.
    expectAuthenticationError(await stack.client().get('/v1/me', { headers: { cookie: `svc_access=${secret}` } }));
  });

  it('carries the X-RateLimit headers on every answer', async () => {
    const { secret } = await ownerWithToken(['sites:read']);
    const reply = await stack.client().get('/v1/me', bearer(secret));
    expect(reply.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(reply.headers.get('x-ratelimit-remaining')).toBe('999');
  });
});

describe('GET /v1/api-tokens', () => {
  it("lists the team's live tokens of every member, newest first, paginated, and not another team's", async () => {
    const { owner, access, id: first } = await ownerWithToken(['sites:read']);
    await ownerWithToken(['sites:read']); // another team
    const second = (await createToken(access, { name: 'second', permissions: ['sites:read'] })).body.data.id;
    const third = (await createToken(access, { name: 'third', permissions: ['sites:read'] })).body.data.id;
    const page1 = await stack.client().get('/v1/api-tokens?page_size=2', bearer(access));
    expect(page1.status).toBe(200);
    expect(page1.body.pagination).toEqual({ page: 1, page_size: 2, total: 3, total_pages: 2 });
    expect(page1.body.data.map((token: { id: number }) => token.id)).toEqual([third, second]);
    const page2 = await stack.client().get('/v1/api-tokens?page=2&page_size=2', bearer(access));
    expect(page2.body.data.map((token: { id: number }) => token.id)).toEqual([first]);
    expect(page2.body.data[0].created_by).toEqual({ user_id: owner.userId, name: owner.name });

    expect((await stack.client().get('/v1/api-tokens?page_size=101', bearer(access))).status).toBe(422);
  });

  it('answers 401 without credentials', async () => {
    expectAuthenticationError(await stack.client().get('/v1/api-tokens'));
  });
});

describe('GET and DELETE /v1/api-tokens/{id}', () => {
  it('revokes a token at once: 200 with revoked_at, then 401 for the token, 404 for the id', async () => {
    const { access, secret, id } = await ownerWithToken(['sites:read']);
    const revoked = await stack.client().request('DELETE', `/v1/api-tokens/${id}`, bearer(access));
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({ id, name: 'CI' });
    expect(revoked.body.data.revoked_at).not.toBeNull();
    expect(revoked.body.data).not.toHaveProperty('token');

    expectAuthenticationError(await stack.client().get('/v1/me', bearer(secret)));
    expect((await stack.client().get(`/v1/api-tokens/${id}`, bearer(access))).status).toBe(404);
    expect((await stack.client().request('DELETE', `/v1/api-tokens/${id}`, bearer(access))).status).toBe(404);
    expect((await stack.client().get('/v1/api-tokens', bearer(access))).body.data).toEqual([]);
  });

  it("answers 404 NOT_FOUND for another team's token, which stays alive", async () => {
    const mine = await ownerWithToken(['sites:read']);
    const theirs = await ownerWithToken(['sites:read']);
    for (const method of ['GET', 'DELETE']) {
      const reply = await stack.client().request(method, `/v1/api-tokens/${theirs.id}`, bearer(mine.access));
      expect(reply.status).toBe(404);
      expect(reply.body.error.code).toBe('NOT_FOUND');
      expect(JSON.stringify(reply.body)).not.toContain(theirs.secret.slice(10, 18));
    }
    expect((await stack.client().get('/v1/me', bearer(theirs.secret))).status).toBe(200);
  });

  it('answers 404 for ids that name nothing', async () => {
    const { access } = await ownerWithToken(['sites:read']);
    for (const id of ['0', 'abc', '99999999999', '2147483647']) {
      expect((await stack.client().get(`/v1/api-tokens/${id}`, bearer(access))).status).toBe(404);
    }
  });

  it('can be done by a token holding api_tokens:delete, within the team (even the token itself)', async () => {
    const { secret, id } = await ownerWithToken(['api_tokens:delete']);
    const revoked = await stack.client().request('DELETE', `/v1/api-tokens/${id}`, bearer(secret));
    expect(revoked.status).toBe(200);
    expectAuthenticationError(await stack.client().get('/v1/me', bearer(secret)));
  });

  it("works from the panel's cookie session with its CSRF check", async () => {
    const owner = await createOwner(stack.ctx.db);
    const panel = stack.client();
    await signIn(panel, owner);
    const created = await panel.post('/v1/api-tokens', { name: 'from panel', permissions: ['sites:read'] });
    expect(created.status).toBe(201);
    const withoutCsrf = await panel.request('DELETE', `/v1/api-tokens/${created.body.data.id}`, { csrf: false });
    expect(withoutCsrf.status).toBe(403);
    expect((await panel.request('DELETE', `/v1/api-tokens/${created.body.data.id}`)).status).toBe(200);
  });
});

describe('rate limits of API tokens (RATE_LIMIT_API=3/1m)', () => {
  let limited: Stack;
  beforeAll(async () => {
    limited = await startStack({ workers: false, env: { RATE_LIMIT_API: '3/1m' } });
  });
  afterAll(async () => {
    await limited?.stop();
  });

  it('counts per token: each token, and the session that created them, has its own budget', async () => {
    const owner = await createOwner(limited.ctx.db);
    const access = await accessTokenOf(limited.client(), owner);
    const first = await limited.client().post('/v1/api-tokens', { name: 'a', permissions: ['sites:read'] }, bearer(access));
    const second = await limited.client().post('/v1/api-tokens', { name: 'b', permissions: ['sites:read'] }, bearer(access));
    const remaining = async (credential: string) => {
      const reply = await limited.client().get('/v1/me', bearer(credential));
      expect(reply.headers.get('x-ratelimit-limit')).toBe('3');
      return [reply.status, reply.headers.get('x-ratelimit-remaining')];
    };
    const a = first.body.data.token;
    const b = second.body.data.token;
    expect(await remaining(a)).toEqual([200, '2']);
    expect(await remaining(a)).toEqual([200, '1']);
    expect(await remaining(a)).toEqual([200, '0']);
    const refused = await limited.client().get('/v1/me', bearer(a));
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(await remaining(b)).toEqual([200, '2']);
    expect(await remaining(access)).toEqual([200, '0']); // the session spent two on creating the tokens
  });
});

describe('POST /v1/api-tokens with an Idempotency-Key', () => {
  it('replays the creation without the secret, and keeps no secret in Redis', async () => {
    const owner = await createOwner(stack.ctx.db);
    const access = await accessTokenOf(stack.client(), owner);
    const options = { headers: { authorization: `Bearer ${access}`, 'idempotency-key': unique('key') } };
    const body = { name: 'deploys', permissions: ['sites:read'] };
    const first = await stack.client().post('/v1/api-tokens', body, options);
    expect(first.status).toBe(201);
    const secret = first.body.data.token as string;
    expect(secret).toMatch(/^berth_pat_/);
    const replay = await stack.client().post('/v1/api-tokens', body, options);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data).toMatchObject({ id: first.body.data.id, token: null });
    const stored = await stack.ctx.redis.keys(`${stack.ctx.config.redisPrefix}:idem:*`);
    expect(stored.length).toBeGreaterThan(0);
    for (const key of stored) expect(await stack.ctx.redis.get(key)).not.toContain(secret.slice(10));
  });
});

describe('API token webhook events', () => {
  it('say a token was created and revoked, with its prefix and never its secret', async () => {
    const owner = await createOwner(stack.ctx.db);
    const access = await accessTokenOf(stack.client(), owner);
    expect((await stack.client().post('/v1/webhooks', { url: 'https://93.184.215.14/berth', event_types: ['api_token.*'] }, bearer(access))).status).toBe(201);
    const created = await createToken(access, { name: 'deploy', permissions: ['sites:read'] });
    expect(created.status).toBe(201);
    expect((await stack.client().request('DELETE', `/v1/api-tokens/${created.body.data.id}`, bearer(access))).status).toBe(200);
    const events = (await stack.ctx.db('webhook_events').where({ team_id: owner.teamId }).orderBy('created_at').select('type', 'body')) as Array<{
      type: string;
      body: string;
    }>;
    expect(events.map((event) => event.type)).toEqual(['api_token.created', 'api_token.revoked']);
    for (const event of events) expect(event.body).not.toContain(created.body.data.token);
    expect(JSON.parse(events[0]!.body).data).toEqual({
      api_token: {
        id: created.body.data.id,
        name: 'deploy',
        prefix: created.body.data.prefix,
        permissions: ['sites:read'],
        expires_at: created.body.data.expires_at,
        created_by_user_id: owner.userId,
      },
      reason: 'created',
    });
    expect(JSON.parse(events[1]!.body).data.reason).toBe('revoked');
  });
});
