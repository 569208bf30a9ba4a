import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../helpers/client.ts';
import { accessTokenOf, createOwner, unique, uniqueEmail, type TestUser } from '../../helpers/factories.ts';
import { addMember, builtinRoleId, call, failedFields } from '../../helpers/team-members.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ workers: false });
});
afterAll(async () => {
  await stack?.stop();
});

const BUILTIN = ['owner', 'admin', 'developer', 'billing', 'viewer'];
const rolesPath = (team: TestUser, roleId?: number | string) => `/v1/teams/${team.teamId}/roles${roleId === undefined ? '' : `/${roleId}`}`;

async function createRole(team: TestUser, token: string, body: Record<string, unknown>) {
  return call(stack.client(), 'POST', rolesPath(team), token, { name: unique('role'), permissions: [], ...body });
}

describe('GET /v1/teams/{id}/roles', () => {
  it("lists the built-in roles first, then the team's own by name, paginated; never another team's", async () => {
    const owner = await createOwner(stack.ctx.db);
    const other = await createOwner(stack.ctx.db);
    const token = await accessTokenOf(stack.client(), owner);
    expect((await createRole(owner, token, { name: 'Zeta', permissions: ['sites:read'] })).status).toBe(201);
    expect((await createRole(owner, token, { name: 'alpha', description: 'First', permissions: ['sites:*', 'backups:read'] })).status).toBe(201);
    await createRole(other, await accessTokenOf(stack.client(), other), { name: 'theirs' });

    const reply = await stack.client().get(rolesPath(owner), bearer(token));
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(['data', 'meta', 'pagination']);
    expect(reply.body.pagination).toEqual({ page: 1, page_size: 20, total: 7, total_pages: 1 });
    expect(reply.body.data.map((role: { name: string }) => role.name)).toEqual([...BUILTIN, 'alpha', 'Zeta']);
    expect(reply.body.data[0]).toMatchObject({ name: 'owner', permissions: ['*'], builtin: true });
    expect(reply.body.data[5]).toEqual({
      id: expect.any(Number),
      name: 'alpha',
      description: 'First',
      permissions: ['sites:*', 'backups:read'],
      builtin: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    const paged = await stack.client().get(`${rolesPath(owner)}?page=3&page_size=3`, bearer(token));
    expect(paged.body.pagination).toEqual({ page: 3, page_size: 3, total: 7, total_pages: 3 });
    expect(paged.body.data.map((role: { name: string }) => role.name)).toEqual(['Zeta']);
  });

  it('answers 403 without roles:read, 404 for another team', async () => {
    const owner = await createOwner(stack.ctx.db);
    const developer = await addMember(stack.ctx.db, owner, 'developer');
    const refused = await stack.client().get(rolesPath(owner), bearer(await accessTokenOf(stack.client(), developer)));
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.permission).toBe('roles:read');
    const other = await createOwner(stack.ctx.db);
    expect((await stack.client().get(rolesPath(other), bearer(await accessTokenOf(stack.client(), owner)))).status).toBe(404);
  });
});

describe('POST /v1/teams/{id}/roles', () => {
  it('creates a custom role that can be given to members', async () => {
    const owner = await createOwner(stack.ctx.db);
    const token = await accessTokenOf(stack.client(), owner);
    const reply = await createRole(owner, token, { name: '  Site manager ', permissions: ['sites:*', 'sites:read', 'members:read'] });
    expect(reply.status).toBe(201);
    expect(reply.body.data).toMatchObject({ name: 'Site manager', description: '', permissions: ['sites:*', 'sites:read', 'members:read'], builtin: false });
    const member = await addMember(stack.ctx.db, owner, 'viewer');
    const assigned = await call(stack.client(), 'PATCH', `/v1/teams/${owner.teamId}/members/${member.userId}`, token, { role_id: reply.body.data.id });
    expect(assigned.status).toBe(200);
    expect(assigned.body.data.role).toEqual({ id: reply.body.data.id, name: 'Site manager' });
  });

  it('refuses grants the caller does not hold: an admin cannot create a role with *, billing:* or billing:read', async () => {
    const owner = await createOwner(stack.ctx.db);
    const admin = await addMember(stack.ctx.db, owner, 'admin');
    const token = await accessTokenOf(stack.client(), admin);
    for (const [permissions, missing] of [
      [['*'], '*'],
      [['sites:read', 'billing:*'], 'billing:*'],
      [['billing:read'], 'billing:read'],
      [['teams:delete'], 'teams:delete'],
    ] as const) {
      const reply = await createRole(owner, token, { permissions });
      expect(reply.status, missing).toBe(403);
      expect(reply.body.error).toMatchObject({ code: 'AUTHORIZATION_ERROR', details: { reason: 'missing_permission', permission: missing } });
    }
    expect(await stack.ctx.db('roles').where({ team_id: owner.teamId })).toEqual([]);
    expect((await createRole(owner, token, { permissions: ['sites:*', 'members:read'] })).status).toBe(201);
  });

  it('answers 409 for a name the team has (whatever the case) or a built-in name', async () => {
    const owner = await createOwner(stack.ctx.db);
    const other = await createOwner(stack.ctx.db);
    const token = await accessTokenOf(stack.client(), owner);
    expect((await createRole(owner, token, { name: 'Support' })).status).toBe(201);
    for (const name of ['Support', 'SUPPORT', 'admin', 'Owner']) {
      const reply = await createRole(owner, token, { name });
      expect(reply.status, name).toBe(409);
      expect(reply.body.error.code).toBe('CONFLICT');
    }
    // Names are per team.
    expect((await createRole(other, await accessTokenOf(stack.client(), other), { name: 'Support' })).status).toBe(201);
  });

  it('answers 422 naming each bad field, 403 without roles:create, 404 for another team', async () => {
    const owner = await createOwner(stack.ctx.db);
    const token = await accessTokenOf(stack.client(), owner);
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ permissions: ['sites'] }, ['permissions.0']],
      [{ permissions: ['sites:read', 'Sites:Read', '*:read'] }, ['permissions.1', 'permissions.2']],
      [{ permissions: 'sites:read' }, ['permissions']],
      [{ name: '' }, ['name']],
      [{ name: 'x'.repeat(51) }, ['name']],
      [{ colour: 'red' }, ['colour']],
    ];
    for (const [body, fields] of cases) {
      const reply = await createRole(owner, token, body);
      expect(reply.status, JSON.stringify(body)).toBe(422);
      expect(failedFields(reply)).toEqual(fields);
    }
    const missing = await call(stack.client(), 'POST', rolesPath(owner), token, {});
    expect(failedFields(missing).sort()).toEqual(['name', 'permissions']);

    const developer = await addMember(stack.ctx.db, owner, 'developer');
    const refused = await createRole(owner, await accessTokenOf(stack.client(), developer), {});
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.permission).toBe('roles:create');
    const other = await createOwner(stack.ctx.db);
    expect((await createRole(other, token, {})).status).toBe(404);
  });
});

describe('GET /v1/teams/{id}/roles/{role_id}', () => {
  it("answers a built-in role and the team's own; 404 for another team's role or an unknown id", async () => {
    const owner = await createOwner(stack.ctx.db);
    const other = await createOwner(stack.ctx.db);
    const token = await accessTokenOf(stack.client(), owner);
    const viewerId = await builtinRoleId(stack.ctx.db, 'viewer');
    const builtin = await stack.client().get(rolesPath(owner, viewerId), bearer(token));
    expect(builtin.status).toBe(200);
    expect(builtin.body.data).toMatchObject({ id: viewerId, name: 'viewer', builtin: true });
    const own = (await createRole(owner, token, { name: 'Mine' })).body.data;
    expect((await stack.client().get(rolesPath(owner, own.id), bearer(token))).body.data).toEqual(own);

    const theirs = (await createRole(other, await accessTokenOf(stack.client(), other), { name: 'Theirs' })).body.data;
    for (const id of [theirs.id, 999_999_999, 'mine']) {
      const reply = await stack.client().get(rolesPath(owner, id), bearer(token));
      expect(reply.status, String(id)).toBe(404);
      expect(reply.body.error.code).toBe('NOT_FOUND');
    }
  });
});

describe('PATCH /v1/teams/{id}/roles/{role_id}', () => {
  it("changes a role; its members' existing bearer tokens see the change at once", async () => {
    const owner = await createOwner(stack.ctx.db);
    const ownerToken = await accessTokenOf(stack.client(), owner);
    const role = (await createRole(owner, ownerToken, { name: 'Reader', permissions: ['members:read'] })).body.data;
    const member = await addMember(stack.ctx.db, owner, role.id);
    const memberToken = await accessTokenOf(stack.client(), member);
    expect((await stack.client().get(rolesPath(owner), bearer(memberToken))).status).toBe(403);

    const changed = await call(stack.client(), 'PATCH', rolesPath(owner, role.id), ownerToken, {
      permissions: ['members:read', 'roles:read'],
      description: 'Reads people and roles',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      id: role.id,
      name: 'Reader',
      description: 'Reads people and roles',
      permissions: ['members:read', 'roles:read'],
    });
    expect((await stack.client().get(rolesPath(owner), bearer(memberToken))).status).toBe(200);

    expect((await call(stack.client(), 'PATCH', rolesPath(owner, role.id), ownerToken, { permissions: [] })).status).toBe(200);
    expect((await stack.client().get(`/v1/teams/${owner.teamId}/members`, bearer(memberToken))).status).toBe(403);
  });

  it("refuses an admin who does not hold the role's current grants or the new ones (403)", async () => {
    const owner = await createOwner(stack.ctx.db);
    const ownerToken = await accessTokenOf(stack.client(), owner);
    const billingRole = (await createRole(owner, ownerToken, { name: 'Accounts', permissions: ['billing:read'] })).body.data;
    const sitesRole = (await createRole(owner, ownerToken, { name: 'Sites', permissions: ['sites:read'] })).body.data;
    const admin = await addMember(stack.ctx.db, owner, 'admin');
    const adminToken = await accessTokenOf(stack.client(), admin);

    const rename = await call(stack.client(), 'PATCH', rolesPath(owner, billingRole.id), adminToken, { name: 'Renamed' });
    expect(rename.status).toBe(403);
    expect(rename.body.error.details.permission).toBe('billing:read');
    const escalate = await call(stack.client(), 'PATCH', rolesPath(owner, sitesRole.id), adminToken, { permissions: ['sites:read', '*'] });
    expect(escalate.status).toBe(403);
    expect(escalate.body.error.details.permission).toBe('*');
    expect((await call(stack.client(), 'PATCH', rolesPath(owner, sitesRole.id), adminToken, { permissions: ['sites:*'] })).status).toBe(200);
    expect((await stack.ctx.db('roles').where({ id: billingRole.id }).first()).name).toBe('Accounts');
  });

  it("answers 409 for a built-in role or a taken name, 404 for another team's role, 422 for a bad body", async () => {
    const owner = await createOwner(stack.ctx.db);
    const token = await accessTokenOf(stack.client(), owner);
    const viewerId = await builtinRoleId(stack.ctx.db, 'viewer');
    const builtin = await call(stack.client(), 'PATCH', rolesPath(owner, viewerId), token, { permissions: ['*'] });
    expect(builtin.status).toBe(409);
    expect((await stack.ctx.db('roles').where({ id: viewerId }).first()).permissions).not.toContain('*');

    await createRole(owner, token, { name: 'Taken' });
    const role = (await createRole(owner, token, { name: 'Free' })).body.data;
    expect((await call(stack.client(), 'PATCH', rolesPath(owner, role.id), token, { name: 'taken' })).status).toBe(409);
    expect((await call(stack.client(), 'PATCH', rolesPath(owner, role.id), token, { name: 'developer' })).status).toBe(409);
    expect((await call(stack.client(), 'PATCH', rolesPath(owner, role.id), token, { name: 'FREE' })).status).toBe(200);

    const invalid = await call(stack.client(), 'PATCH', rolesPath(owner, role.id), token, { permissions: ['nope'], builtin: true });
    expect(invalid.status).toBe(422);
    expect(failedFields(invalid).sort()).toEqual(['builtin', 'permissions.0']);

    const other = await createOwner(stack.ctx.db);
    const theirs = (await createRole(other, await accessTokenOf(stack.client(), other), { name: 'Theirs' })).body.data;
    expect((await call(stack.client(), 'PATCH', rolesPath(owner, theirs.id), token, { name: 'Stolen' })).status).toBe(404);
    expect((await stack.ctx.db('roles').where({ id: theirs.id }).first()).name).toBe('Theirs');
  });
});

describe('DELETE /v1/teams/{id}/roles/{role_id}', () => {
  it('refuses a role in use by a member or an open invite (409), then deletes it once unused', async () => {
    const owner = await createOwner(stack.ctx.db);
    const token = await accessTokenOf(stack.client(), owner);
    const role = (await createRole(owner, token, { name: 'Temporary', permissions: ['sites:read'] })).body.data;
    const member = await addMember(stack.ctx.db, owner, role.id);
    const invite = await call(stack.client(), 'POST', `/v1/teams/${owner.teamId}/invites`, token, { email: uniqueEmail(), role_id: role.id });
    expect(invite.status).toBe(201);

    const inUse = await call(stack.client(), 'DELETE', rolesPath(owner, role.id), token);
    expect(inUse.status).toBe(409);
    expect(inUse.body.error.message).toMatch(/1 member\(s\), 1 open invite\(s\)/);

    await call(stack.client(), 'PATCH', `/v1/teams/${owner.teamId}/members/${member.userId}`, token, { role_id: await builtinRoleId(stack.ctx.db, 'viewer') });
    expect((await call(stack.client(), 'DELETE', rolesPath(owner, role.id), token)).status).toBe(409);
    await call(stack.client(), 'DELETE', `/v1/teams/${owner.teamId}/invites/${invite.body.data.id}`, token);

    const deleted = await call(stack.client(), 'DELETE', rolesPath(owner, role.id), token);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id: role.id, name: 'Temporary' });
    expect((await stack.client().get(rolesPath(owner, role.id), bearer(token))).status).toBe(404);
    expect(await stack.ctx.db('invites').where({ id: invite.body.data.id })).toEqual([]);
  });

  it("answers 409 for a built-in role, 404 for another team's, 403 without roles:delete or the role's grants", async () => {
    const owner = await createOwner(stack.ctx.db);
    const token = await accessTokenOf(stack.client(), owner);
    const builtin = await call(stack.client(), 'DELETE', rolesPath(owner, await builtinRoleId(stack.ctx.db, 'viewer')), token);
    expect(builtin.status).toBe(409);

    const other = await createOwner(stack.ctx.db);
    const theirs = (await createRole(other, await accessTokenOf(stack.client(), other), { name: 'Theirs' })).body.data;
    expect((await call(stack.client(), 'DELETE', rolesPath(owner, theirs.id), token)).status).toBe(404);
    expect(await stack.ctx.db('roles').where({ id: theirs.id }).first()).toBeDefined();

    const billingRole = (await createRole(owner, token, { name: 'Accounts', permissions: ['billing:read'] })).body.data;
    const admin = await addMember(stack.ctx.db, owner, 'admin');
    const refused = await call(stack.client(), 'DELETE', rolesPath(owner, billingRole.id), await accessTokenOf(stack.client(), admin));
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.permission).toBe('billing:read');

    const developer = await addMember(stack.ctx.db, owner, 'developer');
    const noPermission = await call(stack.client(), 'DELETE', rolesPath(owner, billingRole.id), await accessTokenOf(stack.client(), developer));
    expect(noPermission.status).toBe(403);
    expect(noPermission.body.error.details.permission).toBe('roles:delete');
  });
});
