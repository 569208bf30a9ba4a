import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../helpers/client.ts';
import { accessTokenOf, createOwner, unique, type TestUser } from '../../helpers/factories.ts';
import { addMember, builtinRoleId, call, failedFields, joinTeam } from '../../helpers/team-members.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';

let stack: Stack;
let roleIds: Record<string, number>;
beforeAll(async () => {
  stack = await startStack({ workers: false });
  roleIds = {};
  for (const name of ['owner', 'admin', 'developer', 'billing', 'viewer']) roleIds[name] = await builtinRoleId(stack.ctx.db, name);
});
afterAll(async () => {
  await stack?.stop();
});

const membersPath = (user: TestUser, userId?: number | string) => `/v1/teams/${user.teamId}/members${userId === undefined ? '' : `/${userId}`}`;
const setRole = (token: string, team: TestUser, member: TestUser, role: string) =>
  call(stack.client(), 'PATCH', membersPath(team, member.userId), token, { role_id: roleIds[role] });
const removeMember = (token: string, team: TestUser, member: TestUser | 'me') =>
  call(stack.client(), 'DELETE', membersPath(team, member === 'me' ? 'me' : member.userId), token);

async function roleOf(member: TestUser): Promise<string | undefined> {
  const row = await stack.ctx
    .db('memberships as m')
    .join('roles as r', 'r.id', 'm.role_id')
    .where({ 'm.user_id': member.userId, 'm.team_id': member.teamId })
    .first('r.name');
  return row?.name;
}

async function activeOwners(teamId: number): Promise<number> {
  const rows = await stack.ctx
    .db('memberships as m')
    .join('roles as r', 'r.id', 'm.role_id')
    .where({ 'm.team_id': teamId, 'm.status': 'ACTIVE', 'r.name': 'owner' })
    .whereNull('r.team_id');
  return rows.length;
}

describe('GET /v1/teams/{id}/members', () => {
  it('lists the members with their role, status and when they joined, paginated', async () => {
    const owner = await createOwner(stack.ctx.db);
    const developer = await addMember(stack.ctx.db, owner, 'developer');
    const suspended = await addMember(stack.ctx.db, owner, 'viewer', 'SUSPENDED');
    const token = await accessTokenOf(stack.client(), developer);

    const reply = await stack.client().get(`${membersPath(owner)}?page_size=2`, bearer(token));
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(['data', 'meta', 'pagination']);
    expect(reply.body.pagination).toEqual({ page: 1, page_size: 2, total: 3, total_pages: 2 });
    expect(reply.body.data[0]).toEqual({
      user_id: owner.userId,
      name: owner.name,
      email: owner.email,
      role: { id: roleIds.owner, name: 'owner' },
      status: 'ACTIVE',
      joined_at: expect.any(String),
    });
    expect(reply.body.data[1]).toMatchObject({ user_id: developer.userId, role: { name: 'developer' } });
    const second = await stack.client().get(`${membersPath(owner)}?page=2&page_size=2`, bearer(token));
    expect(second.body.data).toEqual([
      expect.objectContaining({ user_id: suspended.userId, status: 'SUSPENDED', role: { id: roleIds.viewer, name: 'viewer' } }),
    ]);
  });

  it('answers 404 for another team, 403 without members:read, 422 for a bad page', async () => {
    const owner = await createOwner(stack.ctx.db);
    const other = await createOwner(stack.ctx.db);
    const token = await accessTokenOf(stack.client(), owner);
    expect((await stack.client().get(membersPath(other), bearer(token))).status).toBe(404);
    const invalid = await stack.client().get(`${membersPath(owner)}?page=0`, bearer(token));
    expect(invalid.status).toBe(422);
    expect(failedFields(invalid)).toEqual(['page']);

    const [role] = await stack.ctx
      .db('roles')
      .insert({ team_id: owner.teamId, name: unique('teams-only'), permissions: ['teams:read'] })
      .returning('id');
    const member = await addMember(stack.ctx.db, owner, role.id as number);
    const refused = await stack.client().get(membersPath(owner), bearer(await accessTokenOf(stack.client(), member)));
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.permission).toBe('members:read');
  });
});

describe('PATCH /v1/teams/{id}/members/{user_id}', () => {
  it("changes a member's role, which their existing bearer token sees at once", async () => {
    const owner = await createOwner(stack.ctx.db);
    const member = await addMember(stack.ctx.db, owner, 'developer');
    const ownerToken = await accessTokenOf(stack.client(), owner);
    const memberToken = await accessTokenOf(stack.client(), member);
    const invites = `/v1/teams/${owner.teamId}/invites`;
    expect((await stack.client().get(invites, bearer(memberToken))).status).toBe(403);

    const promoted = await setRole(ownerToken, owner, member, 'admin');
    expect(promoted.status).toBe(200);
    expect(promoted.body.data).toMatchObject({ user_id: member.userId, role: { id: roleIds.admin, name: 'admin' }, status: 'ACTIVE' });
    expect((await stack.client().get(invites, bearer(memberToken))).status).toBe(200);

    expect((await setRole(ownerToken, owner, member, 'viewer')).status).toBe(200);
    const refused = await stack.client().get(invites, bearer(memberToken));
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.permission).toBe('invites:read');
  });

  it("applies a role change to the member's existing API token at once", async () => {
    const owner = await createOwner(stack.ctx.db);
    const admin = await addMember(stack.ctx.db, owner, 'admin');
    const created = await call(stack.client(), 'POST', '/v1/api-tokens', await accessTokenOf(stack.client(), admin), {
      name: 'ci',
      permissions: ['invites:read', 'members:read'],
    });
    expect(created.status).toBe(201);
    const apiToken = created.body.data.token as string;
    const invites = `/v1/teams/${owner.teamId}/invites`;
    expect((await stack.client().get(invites, bearer(apiToken))).status).toBe(200);

    const ownerToken = await accessTokenOf(stack.client(), owner);
    expect((await setRole(ownerToken, owner, admin, 'developer')).status).toBe(200);
    const refused = await stack.client().get(invites, bearer(apiToken));
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.permission).toBe('invites:read');
    expect((await setRole(ownerToken, owner, admin, 'admin')).status).toBe(200);
    expect((await stack.client().get(invites, bearer(apiToken))).status).toBe(200);
  });

  it('lets an admin change what they hold, but not assign owner nor touch an owner', async () => {
    const owner = await createOwner(stack.ctx.db);
    const admin = await addMember(stack.ctx.db, owner, 'admin');
    const developer = await addMember(stack.ctx.db, owner, 'developer');
    const adminToken = await accessTokenOf(stack.client(), admin);

    expect((await setRole(adminToken, owner, developer, 'viewer')).status).toBe(200);

    const makeOwner = await setRole(adminToken, owner, developer, 'owner');
    expect(makeOwner.status).toBe(403);
    expect(makeOwner.body.error).toMatchObject({ code: 'AUTHORIZATION_ERROR', details: { permission: '*' } });
    const selfOwner = await setRole(adminToken, owner, admin, 'owner');
    expect(selfOwner.status).toBe(403);
    // billing:* is the one thing an admin lacks.
    const billing = await setRole(adminToken, owner, developer, 'billing');
    expect(billing.status).toBe(403);
    expect(billing.body.error.details.permission).toBe('billing:*');

    const demoteOwner = await setRole(adminToken, owner, owner, 'viewer');
    expect(demoteOwner.status).toBe(403);
    expect(demoteOwner.body.error.details.permission).toBe('*');
    expect(await roleOf(owner)).toBe('owner');
    expect(await roleOf(developer)).toBe('viewer');
  });

  it('refuses to demote the last active owner with 409, and lets one of two owners step down', async () => {
    const owner = await createOwner(stack.ctx.db);
    const ownerToken = await accessTokenOf(stack.client(), owner);
    const alone = await setRole(ownerToken, owner, owner, 'admin');
    expect(alone.status).toBe(409);
    expect(alone.body.error.code).toBe('CONFLICT');

    // A suspended owner does not count.
    await addMember(stack.ctx.db, owner, 'owner', 'SUSPENDED');
    expect((await setRole(ownerToken, owner, owner, 'admin')).status).toBe(409);

    const second = await addMember(stack.ctx.db, owner, 'owner');
    expect((await setRole(ownerToken, owner, owner, 'admin')).status).toBe(200);
    expect(await activeOwners(owner.teamId)).toBe(1);
    expect((await setRole(await accessTokenOf(stack.client(), second), owner, second, 'admin')).status).toBe(409);
  });

  it('leaves one owner when two owners demote each other at the same time', async () => {
    for (let round = 0; round < 3; round++) {
      const first = await createOwner(stack.ctx.db);
      const second = await addMember(stack.ctx.db, first, 'owner');
      const [firstToken, secondToken] = await Promise.all([accessTokenOf(stack.client(), first), accessTokenOf(stack.client(), second)]);
      const replies = await Promise.all([setRole(firstToken, first, second, 'admin'), setRole(secondToken, first, first, 'admin')]);
      // The loser is refused either by the last-owner rule (409: both still owners when it checked) or,
      // when the winner committed before the loser's request was authorized, because as an admin it no
      // longer holds the owner's grants (403). Never two successes.
      const [won, lost] = replies.map((reply) => reply.status).sort();
      expect(won).toBe(200);
      expect([403, 409]).toContain(lost);
      expect(await activeOwners(first.teamId)).toBe(1);
    }
  });

  it('leaves one owner when two owners step down at the same time', async () => {
    const first = await createOwner(stack.ctx.db);
    const second = await addMember(stack.ctx.db, first, 'owner');
    const [firstToken, secondToken] = await Promise.all([accessTokenOf(stack.client(), first), accessTokenOf(stack.client(), second)]);
    const replies = await Promise.all([setRole(firstToken, first, first, 'developer'), setRole(secondToken, first, second, 'developer')]);
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409]);
    expect(await activeOwners(first.teamId)).toBe(1);
  });

  it('answers 422 naming role_id for a role the team cannot give, and for a bad body', async () => {
    const owner = await createOwner(stack.ctx.db);
    const other = await createOwner(stack.ctx.db);
    const member = await addMember(stack.ctx.db, owner, 'developer');
    const token = await accessTokenOf(stack.client(), owner);
    const [foreignRole] = await stack.ctx
      .db('roles')
      .insert({ team_id: other.teamId, name: unique('theirs'), permissions: [] })
      .returning('id');
    for (const body of [{ role_id: foreignRole.id }, { role_id: 999_999_999 }, { role_id: 'admin' }, {}]) {
      const reply = await call(stack.client(), 'PATCH', membersPath(owner, member.userId), token, body);
      expect(reply.status, JSON.stringify(body)).toBe(422);
      expect(failedFields(reply)).toEqual(['role_id']);
    }
    const extra = await call(stack.client(), 'PATCH', membersPath(owner, member.userId), token, { role_id: roleIds.viewer, status: 'SUSPENDED' });
    expect(extra.status).toBe(422);
    expect(failedFields(extra)).toEqual(['status']);
    expect(await roleOf(member)).toBe('developer');
  });

  it('answers 404 for a member of another team and for ids that name nobody; 403 without members:update', async () => {
    const owner = await createOwner(stack.ctx.db);
    const other = await createOwner(stack.ctx.db);
    const outsider = await addMember(stack.ctx.db, other, 'developer');
    const token = await accessTokenOf(stack.client(), owner);
    for (const userId of [outsider.userId, other.userId, 999_999_999, 'x']) {
      const reply = await call(stack.client(), 'PATCH', membersPath(owner, userId), token, { role_id: roleIds.viewer });
      expect(reply.status, String(userId)).toBe(404);
      expect(reply.body.error.code).toBe('NOT_FOUND');
    }
    expect((await call(stack.client(), 'PATCH', `/v1/teams/${other.teamId}/members/${outsider.userId}`, token, { role_id: roleIds.viewer })).status).toBe(404);
    expect(await roleOf(outsider)).toBe('developer');

    const developer = await addMember(stack.ctx.db, owner, 'developer');
    const refused = await setRole(await accessTokenOf(stack.client(), developer), owner, developer, 'viewer');
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.permission).toBe('members:update');
  });
});

describe('DELETE /v1/teams/{id}/members/{user_id}', () => {
  it('removes a member: their bearer token stops at once and their sessions in the team are revoked, not elsewhere', async () => {
    const owner = await createOwner(stack.ctx.db);
    const member = await addMember(stack.ctx.db, owner, 'developer');
    const elsewhere = await createOwner(stack.ctx.db);
    const memberElsewhere = await joinTeam(stack.ctx.db, member, elsewhere, 'viewer');
    const memberToken = await accessTokenOf(stack.client(), member);
    const elsewhereToken = await accessTokenOf(stack.client(), memberElsewhere);
    expect((await stack.client().get('/v1/me', bearer(memberToken))).status).toBe(200);

    const reply = await removeMember(await accessTokenOf(stack.client(), owner), owner, member);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ user_id: member.userId, role: { name: 'developer' } });
    expect((await stack.client().get('/v1/me', bearer(memberToken))).status).toBe(401);
    expect((await stack.client().get('/v1/me', bearer(elsewhereToken))).status).toBe(200);

    const sessions = await stack.ctx.db('sessions').where({ user_id: member.userId });
    expect(sessions.filter((session) => session.team_id === owner.teamId).map((session) => session.revoked_reason)).toEqual(['membership_removed']);
    expect(sessions.filter((session) => session.team_id === elsewhere.teamId).map((session) => session.revoked_at)).toEqual([null]);
    expect(await stack.ctx.db('memberships').where({ user_id: member.userId, team_id: owner.teamId }).first()).toBeUndefined();

    expect((await removeMember(await accessTokenOf(stack.client(), owner), owner, member)).status).toBe(404);
  });

  it('refuses an admin removing an owner (403) and removes a developer', async () => {
    const owner = await createOwner(stack.ctx.db);
    const admin = await addMember(stack.ctx.db, owner, 'admin');
    const developer = await addMember(stack.ctx.db, owner, 'developer');
    const adminToken = await accessTokenOf(stack.client(), admin);
    const refused = await removeMember(adminToken, owner, owner);
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.permission).toBe('*');
    expect(await roleOf(owner)).toBe('owner');
    expect((await removeMember(adminToken, owner, developer)).status).toBe(200);
  });

  it('refuses to remove the last active owner, themselves included (409)', async () => {
    const owner = await createOwner(stack.ctx.db);
    const token = await accessTokenOf(stack.client(), owner);
    for (const target of [owner, 'me'] as const) {
      const reply = await removeMember(token, owner, target);
      expect(reply.status).toBe(409);
      expect(reply.body.error.code).toBe('CONFLICT');
    }
    expect(await roleOf(owner)).toBe('owner');
  });

  it("answers 403 without members:delete and 404 for another team's member", async () => {
    const owner = await createOwner(stack.ctx.db);
    const viewer = await addMember(stack.ctx.db, owner, 'viewer');
    const developer = await addMember(stack.ctx.db, owner, 'developer');
    const refused = await removeMember(await accessTokenOf(stack.client(), viewer), owner, developer);
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.permission).toBe('members:delete');

    const other = await createOwner(stack.ctx.db);
    const outsider = await addMember(stack.ctx.db, other, 'developer');
    expect((await removeMember(await accessTokenOf(stack.client(), owner), owner, outsider)).status).toBe(404);
    expect(await roleOf(outsider)).toBe('developer');
  });
});

describe('DELETE /v1/teams/{id}/members/me', () => {
  it('lets any member leave without a permission; their token stops at once', async () => {
    const owner = await createOwner(stack.ctx.db);
    const viewer = await addMember(stack.ctx.db, owner, 'viewer');
    const token = await accessTokenOf(stack.client(), viewer);
    const reply = await removeMember(token, owner, 'me');
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ user_id: viewer.userId, role: { name: 'viewer' } });
    expect(await roleOf(viewer)).toBeUndefined();
    expect((await stack.client().get('/v1/me', bearer(token))).status).toBe(401);
  });

  it('needs members:delete when the caller is an API token', async () => {
    const owner = await createOwner(stack.ctx.db);
    const admin = await addMember(stack.ctx.db, owner, 'admin');
    const adminToken = await accessTokenOf(stack.client(), admin);
    const readOnly = (await call(stack.client(), 'POST', '/v1/api-tokens', adminToken, { name: 'read', permissions: ['members:read'] })).body.data
      .token as string;
    const refused = await removeMember(readOnly, owner, 'me');
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.permission).toBe('members:delete');
    expect(await roleOf(admin)).toBe('admin');
    const mayRemove = (await call(stack.client(), 'POST', '/v1/api-tokens', adminToken, { name: 'remove', permissions: ['members:delete'] })).body.data
      .token as string;
    expect((await removeMember(mayRemove, owner, 'me')).status).toBe(200);
    expect(await roleOf(admin)).toBeUndefined();
  });

  it('lets an owner leave when another owner stays; 404 for another team', async () => {
    const owner = await createOwner(stack.ctx.db);
    await addMember(stack.ctx.db, owner, 'owner');
    const token = await accessTokenOf(stack.client(), owner);
    const other = await createOwner(stack.ctx.db);
    expect((await call(stack.client(), 'DELETE', `/v1/teams/${other.teamId}/members/me`, token)).status).toBe(404);
    expect((await removeMember(token, owner, 'me')).status).toBe(200);
    expect(await activeOwners(owner.teamId)).toBe(1);
  });
});
