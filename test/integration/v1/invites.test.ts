import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../helpers/client.ts';
import { accessTokenOf, createOwner, DEFAULT_PASSWORD, unique, uniqueEmail, type TestUser } from '../../helpers/factories.ts';
import { tokenIn } from '../../helpers/mailbox.ts';
import { addMember, builtinRoleId, call, failedFields } from '../../helpers/team-members.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';

let stack: Stack;
let roleIds: Record<string, number>;
beforeAll(async () => {
  stack = await startStack();
  roleIds = {};
  for (const name of ['owner', 'admin', 'developer', 'billing', 'viewer']) roleIds[name] = await builtinRoleId(stack.ctx.db, name);
});
afterAll(async () => {
  await stack?.stop();
});

const INVITE_SUBJECT = /You are invited to join/;
const invitesPath = (team: TestUser, suffix = '') => `/v1/teams/${team.teamId}/invites${suffix}`;

function accept(token: string, email: string) {
  return stack.client().post('/api/v1/auth/register-from-invite', { invite_token: token, email, password: DEFAULT_PASSWORD, name: unique('Invitee') });
}

async function invite(owner: TestUser, token: string, role = 'developer', email = uniqueEmail()) {
  const reply = await call(stack.client(), 'POST', invitesPath(owner), token, { email, role_id: roleIds[role] });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return { email, id: reply.body.data.id as number, reply };
}

describe('POST /v1/teams/{id}/invites', () => {
  it('mails the invitation; the mailed token joins the team through the auth surface (Door B)', async () => {
    const owner = await createOwner(stack.ctx.db);
    const token = await accessTokenOf(stack.client(), owner);
    const email = uniqueEmail().toUpperCase();
    const { id, reply } = await invite(owner, token, 'developer', email);
    const normalized = email.toLowerCase();
    expect(reply.body.data).toEqual({
      id,
      email: normalized,
      status: 'pending',
      role: { id: roleIds.developer, name: 'developer' },
      invited_by: { user_id: owner.userId, name: owner.name },
      created_at: expect.any(String),
      expires_at: expect.any(String),
      accepted_at: null,
      revoked_at: null,
    });
    const days = (Date.parse(reply.body.data.expires_at) - Date.parse(reply.body.data.created_at)) / 86_400_000;
    expect(days).toBeCloseTo(7, 2);

    const mail = await stack.mailbox.waitForNth(normalized, INVITE_SUBJECT, 1);
    expect(mail.subject).toContain(owner.teamName);
    const joined = await accept(tokenIn(mail), normalized);
    expect(joined.status).toBe(201);
    expect(joined.body).toMatchObject({ team_id: owner.teamId, role_id: roleIds.developer, role_name: 'developer' });

    const listed = await stack.client().get(invitesPath(owner), bearer(token));
    expect(listed.body.data[0]).toMatchObject({ id, status: 'accepted', accepted_at: expect.any(String) });
    const members = await stack.client().get(`/v1/teams/${owner.teamId}/members`, bearer(token));
    expect(members.body.data.map((member: { email: string }) => member.email)).toContain(normalized);

    const again = await call(stack.client(), 'POST', invitesPath(owner), token, { email: normalized, role_id: roleIds.viewer });
    expect(again.status).toBe(422);
    expect(failedFields(again)).toEqual(['email']);
  });

  it('refuses to hand on a role the caller does not fully hold (403 naming the grant)', async () => {
    const owner = await createOwner(stack.ctx.db);
    const admin = await addMember(stack.ctx.db, owner, 'admin');
    const adminToken = await accessTokenOf(stack.client(), admin);
    for (const [role, missing] of [
      ['owner', '*'],
      ['billing', 'billing:*'],
    ] as const) {
      const reply = await call(stack.client(), 'POST', invitesPath(owner), adminToken, { email: uniqueEmail(), role_id: roleIds[role] });
      expect(reply.status, role).toBe(403);
      expect(reply.body.error).toMatchObject({ code: 'AUTHORIZATION_ERROR', details: { permission: missing } });
    }
    expect((await invite(owner, adminToken, 'developer')).reply.status).toBe(201);
    expect(await stack.ctx.db('invites').where({ team_id: owner.teamId })).toHaveLength(1);

    const developer = await addMember(stack.ctx.db, owner, 'developer');
    const refused = await call(stack.client(), 'POST', invitesPath(owner), await accessTokenOf(stack.client(), developer), {
      email: uniqueEmail(),
      role_id: roleIds.viewer,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.permission).toBe('invites:create');
  });

  it('answers 422 naming each bad field, and 404 for another team', async () => {
    const owner = await createOwner(stack.ctx.db);
    const other = await createOwner(stack.ctx.db);
    const token = await accessTokenOf(stack.client(), owner);
    const [foreignRole] = await stack.ctx
      .db('roles')
      .insert({ team_id: other.teamId, name: unique('theirs'), permissions: [] })
      .returning('id');
    const cases: Array<[unknown, string[]]> = [
      [{ email: 'not-an-address', role_id: roleIds.viewer }, ['email']],
      [{ email: uniqueEmail() }, ['role_id']],
      [{ email: uniqueEmail(), role_id: foreignRole.id }, ['role_id']],
      [{ email: uniqueEmail(), role_id: roleIds.viewer, message: 'hi' }, ['message']],
      [{}, ['email', 'role_id']],
    ];
    for (const [body, fields] of cases) {
      const reply = await call(stack.client(), 'POST', invitesPath(owner), token, body);
      expect(reply.status, JSON.stringify(body)).toBe(422);
      expect(failedFields(reply).sort()).toEqual(fields);
    }
    expect((await call(stack.client(), 'POST', invitesPath(other), token, { email: uniqueEmail(), role_id: roleIds.viewer })).status).toBe(404);
    expect(await stack.ctx.db('invites').whereIn('team_id', [owner.teamId, other.teamId])).toEqual([]);
  });
});

describe('GET /v1/teams/{id}/invites', () => {
  it('lists invites newest first with their status, paginated and filtered by status', async () => {
    const owner = await createOwner(stack.ctx.db);
    const token = await accessTokenOf(stack.client(), owner);
    const first = await invite(owner, token, 'viewer');
    const second = await invite(owner, token, 'developer');
    const third = await invite(owner, token, 'admin');
    await stack.ctx
      .db('invites')
      .where({ id: first.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect((await call(stack.client(), 'DELETE', invitesPath(owner, `/${second.id}`), token)).status).toBe(200);

    const all = await stack.client().get(`${invitesPath(owner)}?page_size=2`, bearer(token));
    expect(all.status).toBe(200);
    expect(all.body.pagination).toEqual({ page: 1, page_size: 2, total: 3, total_pages: 2 });
    expect(all.body.data.map((entry: { id: number; status: string }) => [entry.id, entry.status])).toEqual([
      [third.id, 'pending'],
      [second.id, 'revoked'],
    ]);
    const page2 = await stack.client().get(`${invitesPath(owner)}?page=2&page_size=2`, bearer(token));
    expect(page2.body.data.map((entry: { id: number; status: string }) => [entry.id, entry.status])).toEqual([[first.id, 'expired']]);

    for (const [status, id] of [
      ['pending', third.id],
      ['revoked', second.id],
      ['expired', first.id],
    ] as const) {
      const filtered = await stack.client().get(`${invitesPath(owner)}?status=${status}`, bearer(token));
      expect(
        filtered.body.data.map((entry: { id: number }) => entry.id),
        status,
      ).toEqual([id]);
      expect(filtered.body.pagination.total).toBe(1);
    }
    expect((await stack.client().get(`${invitesPath(owner)}?status=accepted`, bearer(token))).body.data).toEqual([]);
    const invalid = await stack.client().get(`${invitesPath(owner)}?status=open`, bearer(token));
    expect(invalid.status).toBe(422);
    expect(failedFields(invalid)).toEqual(['status']);
  });

  it('answers 403 without invites:read and 404 for another team', async () => {
    const owner = await createOwner(stack.ctx.db);
    const viewer = await addMember(stack.ctx.db, owner, 'viewer');
    const refused = await stack.client().get(invitesPath(owner), bearer(await accessTokenOf(stack.client(), viewer)));
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.permission).toBe('invites:read');
    const other = await createOwner(stack.ctx.db);
    expect((await stack.client().get(invitesPath(other), bearer(await accessTokenOf(stack.client(), owner)))).status).toBe(404);
  });
});

describe('POST /v1/teams/{id}/invites/{invite_id}/resend', () => {
  it('mails a new token, which works, while the old one stops working', async () => {
    const owner = await createOwner(stack.ctx.db);
    const token = await accessTokenOf(stack.client(), owner);
    const { email, id } = await invite(owner, token);
    const oldToken = tokenIn(await stack.mailbox.waitForNth(email, INVITE_SUBJECT, 1));

    const resent = await call(stack.client(), 'POST', invitesPath(owner, `/${id}/resend`), token, {});
    expect(resent.status).toBe(200);
    expect(resent.body.data).toMatchObject({ id, status: 'pending' });
    expect((await accept(oldToken, email)).status).toBe(401);

    const newToken = tokenIn(await stack.mailbox.waitForNth(email, INVITE_SUBJECT, 2));
    expect(newToken).not.toBe(oldToken);
    expect((await accept(oldToken, email)).status).toBe(401);
    expect((await accept(newToken, email)).status).toBe(201);

    const closed = await call(stack.client(), 'POST', invitesPath(owner, `/${id}/resend`), token, {});
    expect(closed.status).toBe(409);
    expect(closed.body.error.code).toBe('CONFLICT');
  });

  it('reopens an expired invite for another 7 days', async () => {
    const owner = await createOwner(stack.ctx.db);
    const token = await accessTokenOf(stack.client(), owner);
    const { email, id } = await invite(owner, token);
    await stack.mailbox.waitForNth(email, INVITE_SUBJECT, 1);
    await stack.ctx
      .db('invites')
      .where({ id })
      .update({ expires_at: new Date(Date.now() - 60_000) });
    expect((await stack.client().get(`${invitesPath(owner)}?status=expired`, bearer(token))).body.data).toHaveLength(1);

    const resent = await call(stack.client(), 'POST', invitesPath(owner, `/${id}/resend`), token);
    expect(resent.status).toBe(200);
    expect(resent.body.data.status).toBe('pending');
    const row = await stack.ctx.db('invites').where({ id }).first('expires_at');
    expect((row.expires_at.getTime() - Date.now()) / 86_400_000).toBeCloseTo(7, 1);
    expect((await accept(tokenIn(await stack.mailbox.waitForNth(email, INVITE_SUBJECT, 2)), email)).status).toBe(201);
  });

  it("answers 409 for a revoked invite, 404 for another team's, 403 for a role the caller lacks, 422 for a body", async () => {
    const owner = await createOwner(stack.ctx.db);
    const token = await accessTokenOf(stack.client(), owner);
    const revoked = await invite(owner, token);
    await call(stack.client(), 'DELETE', invitesPath(owner, `/${revoked.id}`), token);
    expect((await call(stack.client(), 'POST', invitesPath(owner, `/${revoked.id}/resend`), token, {})).status).toBe(409);

    const other = await createOwner(stack.ctx.db);
    const foreign = await invite(other, await accessTokenOf(stack.client(), other));
    expect((await call(stack.client(), 'POST', invitesPath(owner, `/${foreign.id}/resend`), token, {})).status).toBe(404);
    expect((await call(stack.client(), 'POST', invitesPath(other, `/${foreign.id}/resend`), token, {})).status).toBe(404);
    expect((await call(stack.client(), 'POST', invitesPath(owner, '/nope/resend'), token, {})).status).toBe(404);

    const ownerInvite = await invite(owner, token, 'owner');
    const admin = await addMember(stack.ctx.db, owner, 'admin');
    const refused = await call(stack.client(), 'POST', invitesPath(owner, `/${ownerInvite.id}/resend`), await accessTokenOf(stack.client(), admin), {});
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.permission).toBe('*');

    const withBody = await call(stack.client(), 'POST', invitesPath(owner, `/${ownerInvite.id}/resend`), token, { email: uniqueEmail() });
    expect(withBody.status).toBe(422);
    expect(failedFields(withBody)).toEqual(['email']);
  });
});

describe('DELETE /v1/teams/{id}/invites/{invite_id}', () => {
  it('revokes an invite: its mailed token stops working; revoking again changes nothing', async () => {
    const owner = await createOwner(stack.ctx.db);
    const token = await accessTokenOf(stack.client(), owner);
    const { email, id } = await invite(owner, token);
    const mailed = tokenIn(await stack.mailbox.waitForNth(email, INVITE_SUBJECT, 1));

    const revoked = await call(stack.client(), 'DELETE', invitesPath(owner, `/${id}`), token);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({ id, status: 'revoked', revoked_at: expect.any(String) });
    expect((await accept(mailed, email)).status).toBe(401);

    const again = await call(stack.client(), 'DELETE', invitesPath(owner, `/${id}`), token);
    expect(again.status).toBe(200);
    expect(again.body.data.revoked_at).toBe(revoked.body.data.revoked_at);
  });

  it("answers 409 for an accepted invite, 404 for another team's, 403 without invites:delete", async () => {
    const owner = await createOwner(stack.ctx.db);
    const token = await accessTokenOf(stack.client(), owner);
    const { email, id } = await invite(owner, token);
    expect((await accept(tokenIn(await stack.mailbox.waitForNth(email, INVITE_SUBJECT, 1)), email)).status).toBe(201);
    const accepted = await call(stack.client(), 'DELETE', invitesPath(owner, `/${id}`), token);
    expect(accepted.status).toBe(409);

    const other = await createOwner(stack.ctx.db);
    const foreign = await invite(other, await accessTokenOf(stack.client(), other));
    expect((await call(stack.client(), 'DELETE', invitesPath(owner, `/${foreign.id}`), token)).status).toBe(404);
    expect((await stack.ctx.db('invites').where({ id: foreign.id }).first()).revoked_at).toBeNull();

    const developer = await addMember(stack.ctx.db, owner, 'developer');
    const pending = await invite(owner, token);
    const refused = await call(stack.client(), 'DELETE', invitesPath(owner, `/${pending.id}`), await accessTokenOf(stack.client(), developer));
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.permission).toBe('invites:delete');
  });
});
