import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type Client } from '../../helpers/client.ts';
import { accessTokenOf, createOwner, unique, type TestUser } from '../../helpers/factories.ts';
import { addMember, call, failedFields, joinTeam } from '../../helpers/team-members.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ workers: false });
});
afterAll(async () => {
  await stack?.stop();
});

describe('GET /v1/teams', () => {
  it("lists the caller's memberships with their role, status and which team is current, paginated", async () => {
    const owner = await createOwner(stack.ctx.db);
    const other = await createOwner(stack.ctx.db);
    await stack.ctx
      .db('teams')
      .where({ id: owner.teamId })
      .update({ name: `a-${owner.teamName}` });
    await stack.ctx
      .db('teams')
      .where({ id: other.teamId })
      .update({ name: `b-${other.teamName}` });
    await joinTeam(stack.ctx.db, owner, other, 'developer');
    const token = await accessTokenOf(stack.client(), owner);

    const reply = await stack.client().get('/v1/teams', bearer(token));
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(['data', 'meta', 'pagination']);
    expect(reply.body.pagination).toEqual({ page: 1, page_size: 20, total: 2, total_pages: 1 });
    const [first, second] = reply.body.data;
    expect(first).toMatchObject({ id: owner.teamId, name: `a-${owner.teamName}`, role: { name: 'owner' }, status: 'ACTIVE', current: true });
    expect(second).toMatchObject({ id: other.teamId, role: { name: 'developer' }, status: 'ACTIVE', current: false });
    expect(typeof first.slug).toBe('string');
    expect(new Date(first.joined_at).toISOString()).toBe(first.joined_at);

    const paged = await stack.client().get('/v1/teams?page=2&page_size=1', bearer(token));
    expect(paged.body.pagination).toEqual({ page: 2, page_size: 1, total: 2, total_pages: 2 });
    expect(paged.body.data.map((team: { id: number }) => team.id)).toEqual([other.teamId]);
  });

  it('shows an API token only its own team', async () => {
    const owner = await createOwner(stack.ctx.db);
    const other = await createOwner(stack.ctx.db);
    await joinTeam(stack.ctx.db, owner, other, 'developer');
    const created = await call(stack.client(), 'POST', '/v1/api-tokens', await accessTokenOf(stack.client(), owner), {
      name: 'script',
      permissions: ['sites:read'],
    });
    const reply = await stack.client().get('/v1/teams', bearer(created.body.data.token));
    expect(reply.status).toBe(200);
    expect(reply.body.data.map((team: { id: number; current: boolean }) => [team.id, team.current])).toEqual([[owner.teamId, true]]);
    expect(reply.body.pagination.total).toBe(1);
  });

  it('needs no permission: a member whose role grants nothing still sees their teams', async () => {
    const owner = await createOwner(stack.ctx.db);
    const [role] = await stack.ctx
      .db('roles')
      .insert({ team_id: owner.teamId, name: unique('nothing'), permissions: [] })
      .returning('id');
    const member = await addMember(stack.ctx.db, owner, role.id as number);
    const reply = await stack.client().get('/v1/teams', bearer(await accessTokenOf(stack.client(), member)));
    expect(reply.status).toBe(200);
    expect(reply.body.data).toHaveLength(1);
  });

  it('answers 422 with the field for a bad page size, 401 without credentials', async () => {
    const owner = await createOwner(stack.ctx.db);
    const invalid = await stack.client().get('/v1/teams?page_size=101', bearer(await accessTokenOf(stack.client(), owner)));
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.code).toBe('VALIDATION_ERROR');
    expect(failedFields(invalid)).toEqual(['page_size']);
    const anonymous = await stack.client().get('/v1/teams');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('AUTHENTICATION_ERROR');
  });
});

describe('GET /v1/teams/{id}', () => {
  it('answers the team the caller acts in, with every setting at its default', async () => {
    const owner = await createOwner(stack.ctx.db);
    const viewer = await addMember(stack.ctx.db, owner, 'viewer');
    const reply = await stack.client().get(`/v1/teams/${owner.teamId}`, bearer(await accessTokenOf(stack.client(), viewer)));
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ id: owner.teamId, name: owner.teamName, settings: { new_device_approval: true, concurrent_sessions: 'approve' } });
  });

  it('answers 404 for any other team, even one the user also belongs to, and for ids that name nothing', async () => {
    const owner = await createOwner(stack.ctx.db);
    const other = await createOwner(stack.ctx.db);
    await joinTeam(stack.ctx.db, owner, other, 'owner');
    const token = await accessTokenOf(stack.client(), owner);
    for (const id of [other.teamId, 999_999_999, 'abc', '0', '99999999999']) {
      const reply = await stack.client().get(`/v1/teams/${id}`, bearer(token));
      expect(reply.status, String(id)).toBe(404);
      expect(reply.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('answers 403 naming teams:read to a role without it', async () => {
    const owner = await createOwner(stack.ctx.db);
    const [role] = await stack.ctx
      .db('roles')
      .insert({ team_id: owner.teamId, name: unique('sites-only'), permissions: ['sites:read'] })
      .returning('id');
    const member = await addMember(stack.ctx.db, owner, role.id as number);
    const reply = await stack.client().get(`/v1/teams/${owner.teamId}`, bearer(await accessTokenOf(stack.client(), member)));
    expect(reply.status).toBe(403);
    expect(reply.body.error).toMatchObject({ code: 'AUTHORIZATION_ERROR', details: { reason: 'missing_permission', permission: 'teams:read' } });
  });
});

describe('PATCH /v1/teams/{id}', () => {
  let owner: TestUser;
  let token: string;
  let client: Client;
  beforeAll(async () => {
    owner = await createOwner(stack.ctx.db);
    token = await accessTokenOf(stack.client(), owner);
    client = stack.client();
  });

  it('renames the team and changes its slug', async () => {
    const slug = unique('renamed');
    const reply = await call(client, 'PATCH', `/v1/teams/${owner.teamId}`, token, { name: '  Renamed team  ', slug });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ id: owner.teamId, name: 'Renamed team', slug });
    expect((await stack.ctx.db('teams').where({ id: owner.teamId }).first()).slug).toBe(slug);
  });

  it('merges settings key by key', async () => {
    const first = await call(client, 'PATCH', `/v1/teams/${owner.teamId}`, token, { settings: { concurrent_sessions: 'allow' } });
    expect(first.body.data.settings).toEqual({ new_device_approval: true, concurrent_sessions: 'allow' });
    const second = await call(client, 'PATCH', `/v1/teams/${owner.teamId}`, token, { settings: { new_device_approval: false } });
    expect(second.status).toBe(200);
    expect(second.body.data.settings).toEqual({ new_device_approval: false, concurrent_sessions: 'allow' });
    expect((await stack.ctx.db('teams').where({ id: owner.teamId }).first()).settings).toEqual({ new_device_approval: false, concurrent_sessions: 'allow' });
  });

  it('answers 409 for a slug another team has', async () => {
    const other = await createOwner(stack.ctx.db);
    const { slug } = await stack.ctx.db('teams').where({ id: other.teamId }).first('slug');
    const reply = await call(client, 'PATCH', `/v1/teams/${owner.teamId}`, token, { slug });
    expect(reply.status).toBe(409);
    expect(reply.body.error.code).toBe('CONFLICT');
  });

  it.each([
    ['a reserved slug', { slug: 'admin' }, ['slug']],
    ['a malformed slug', { slug: 'Not A Slug' }, ['slug']],
    ['an empty name', { name: '   ' }, ['name']],
    ['an unknown key', { colour: 'blue' }, ['colour']],
    ['an unknown setting', { settings: { colour: 'blue' } }, ['settings.colour']],
    [
      'a setting of the wrong type',
      { settings: { new_device_approval: 'no', concurrent_sessions: 'sometimes' } },
      ['settings.new_device_approval', 'settings.concurrent_sessions'],
    ],
  ])('answers 422 naming the field for %s, and changes nothing', async (_label, body, fields) => {
    const before = await stack.ctx.db('teams').where({ id: owner.teamId }).first();
    const reply = await call(client, 'PATCH', `/v1/teams/${owner.teamId}`, token, body);
    expect(reply.status).toBe(422);
    expect(reply.body.error.code).toBe('VALIDATION_ERROR');
    expect(failedFields(reply).sort()).toEqual([...fields].sort());
    expect(await stack.ctx.db('teams').where({ id: owner.teamId }).first()).toEqual(before);
  });

  it('answers 403 naming teams:update to a developer, 404 for another team', async () => {
    const developer = await addMember(stack.ctx.db, owner, 'developer');
    const refused = await call(stack.client(), 'PATCH', `/v1/teams/${owner.teamId}`, await accessTokenOf(stack.client(), developer), { name: 'Mine' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.permission).toBe('teams:update');

    const other = await createOwner(stack.ctx.db);
    const foreign = await call(client, 'PATCH', `/v1/teams/${other.teamId}`, token, { name: 'Taken over' });
    expect(foreign.status).toBe(404);
    expect((await stack.ctx.db('teams').where({ id: other.teamId }).first()).name).toBe(other.teamName);
  });
});

describe('team settings and the sign-in gates', () => {
  it('honours new_device_approval: a new device needs approval until the team turns it off', async () => {
    const owner = await createOwner(stack.ctx.db);
    const token = await accessTokenOf(stack.client(), owner);
    // A second device would also wait for the first session's approval: allow that, to see the device gate alone.
    expect((await call(stack.client(), 'PATCH', `/v1/teams/${owner.teamId}`, token, { settings: { concurrent_sessions: 'allow' } })).status).toBe(200);

    const exchangeFromNewDevice = async () => {
      const client = stack.client();
      const login = await client.post('/api/v1/auth/login', { email: owner.email, password: owner.password });
      return client.post('/api/v1/auth/session-exchange', {
        pre_auth_token: login.body.pre_auth_token,
        team_id: owner.teamId,
        session_info: { device_fingerprint: 'b'.repeat(64) },
      });
    };
    const refused = await exchangeFromNewDevice();
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('device_approval_required');

    expect((await call(stack.client(), 'PATCH', `/v1/teams/${owner.teamId}`, token, { settings: { new_device_approval: false } })).status).toBe(200);
    expect((await exchangeFromNewDevice()).status).toBe(200);
  });
});

describe('the audit trail of the team routes', () => {
  it('records each change with its action and target', async () => {
    const owner = await createOwner(stack.ctx.db);
    const token = await accessTokenOf(stack.client(), owner);
    const member = await addMember(stack.ctx.db, owner, 'developer');
    const leaver = await addMember(stack.ctx.db, owner, 'viewer');
    const viewerRoleId = (await stack.ctx.db('roles').whereNull('team_id').where({ name: 'viewer' }).first('id')).id as number;
    const base = `/v1/teams/${owner.teamId}`;
    const ok = async (method: string, path: string, body?: unknown, as = token) => {
      const reply = await call(stack.client(), method, path, as, body);
      expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300);
      return reply.body.data;
    };

    await ok('PATCH', base, { name: 'Audited' });
    const role = await ok('POST', `${base}/roles`, { name: 'Audited role', permissions: ['sites:read'] });
    await ok('PATCH', `${base}/roles/${role.id}`, { description: 'changed' });
    const invite = await ok('POST', `${base}/invites`, { email: `audit-${owner.email}`, role_id: viewerRoleId });
    await ok('POST', `${base}/invites/${invite.id}/resend`, {});
    await ok('DELETE', `${base}/invites/${invite.id}`);
    await ok('PATCH', `${base}/members/${member.userId}`, { role_id: viewerRoleId });
    await ok('DELETE', `${base}/members/${member.userId}`);
    await ok('DELETE', `${base}/roles/${role.id}`);
    await ok('DELETE', `${base}/members/me`, undefined, await accessTokenOf(stack.client(), leaver));

    const entries = await stack.ctx
      .db('activity')
      .where({ team_id: owner.teamId })
      .whereNotNull('status')
      .orderBy('id')
      .select('action', 'target_type', 'target_id', 'actor_user_id', 'outcome');
    expect(entries.map((entry) => [entry.action, entry.target_type, entry.target_id])).toEqual([
      ['team.updated', 'team', String(owner.teamId)],
      ['role.created', 'role', String(role.id)],
      ['role.updated', 'role', String(role.id)],
      ['invite.created', 'invite', String(invite.id)],
      ['invite.resent', 'invite', String(invite.id)],
      ['invite.revoked', 'invite', String(invite.id)],
      ['member.role_changed', 'member', String(member.userId)],
      ['member.removed', 'member', String(member.userId)],
      ['role.deleted', 'role', String(role.id)],
      ['member.left', 'team', String(owner.teamId)],
    ]);
    expect(entries.every((entry) => entry.outcome === 'success')).toBe(true);
    expect(entries.at(-1)!.actor_user_id).toBe(leaver.userId);
  });
});
