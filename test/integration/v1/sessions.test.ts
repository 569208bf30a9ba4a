import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeamWithOwner } from '../../../shared/domains/teams/teams.ts';
import { bearer, type Client } from '../../helpers/client.ts';
import { expectV1Error } from '../../helpers/expect-error.ts';
import { createOwner, deviceFingerprint, signIn, unique, type TestUser } from '../../helpers/factories.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';

const CURL = 'curl/8.5.0';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ workers: false });
});
afterAll(async () => {
  await stack?.stop();
});

// ---- helpers -------------------------------------------------------------------------------------

/** A bearer access token of a new session of the user, through POST /v1/auth/login from the trusted device. */
async function apiSession(user: TestUser, options: { teamId?: number; userAgent?: string } = {}): Promise<{ token: string; sessionId: string }> {
  const body = { email: user.email, password: user.password, device_fingerprint: deviceFingerprint, team_id: options.teamId ?? user.teamId };
  const reply = await stack.client().post('/v1/auth/login', body, { headers: { 'user-agent': options.userAgent ?? CURL } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return { token: reply.body.data.access_token, sessionId: reply.body.data.session_id };
}

const list = (token: string, query = '') => stack.client().get(`/v1/sessions${query}`, bearer(token));
const revokeOne = (token: string, id: string) => stack.client().request('DELETE', `/v1/sessions/${id}`, bearer(token));
const revokeOthers = (token: string) => stack.client().request('DELETE', '/v1/sessions', bearer(token));
const me = (token: string) => stack.client().get('/v1/me', bearer(token));

async function sessionRow(id: string) {
  return stack.ctx.db('sessions').where({ id }).first();
}

// ---- GET /v1/sessions -------------------------------------------------------------------------------

describe('GET /v1/sessions', () => {
  it("lists the caller's live sessions in every team, marking the current one, and nobody else's", async () => {
    const user = await createOwner(stack.ctx.db);
    const second = await stack.ctx.db.transaction((trx) =>
      createTeamWithOwner(trx, { name: unique('Second'), slug: unique('second'), ownerUserId: user.userId }),
    );
    const first = await apiSession(user);
    const other = await apiSession(user, { teamId: second.team.id, userAgent: FIREFOX_LINUX });
    await apiSession(await createOwner(stack.ctx.db));

    const reply = await list(first.token);
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(['data', 'meta', 'pagination']);
    expect(reply.body.pagination).toEqual({ page: 1, page_size: 20, total: 2, total_pages: 1 });
    const byId = new Map((reply.body.data as Array<{ id: string }>).map((session) => [session.id, session]));
    expect([...byId.keys()].sort()).toEqual([first.sessionId, other.sessionId].sort());
    expect(byId.get(first.sessionId)).toEqual({
      id: first.sessionId,
      team_id: user.teamId,
      team_name: user.teamName,
      device_label: 'curl',
      user_agent: CURL,
      ip: expect.any(String),
      created_at: expect.stringMatching(ISO_UTC),
      last_seen_at: expect.stringMatching(ISO_UTC),
      second_factor_pending: false,
      current: true,
    });
    expect(byId.get(other.sessionId)).toMatchObject({ team_id: second.team.id, team_name: second.team.name, device_label: 'Firefox on Linux', current: false });
  });

  it("leaves out ended sessions and lists the panel's cookie session, current when it asks", async () => {
    const user = await createOwner(stack.ctx.db);
    const panel = stack.client();
    await signIn(panel, user);
    const api = await apiSession(user);
    const ended = await apiSession(user);
    await stack.ctx.db('sessions').where({ id: ended.sessionId }).update({ revoked_at: new Date(), revoked_reason: 'test' });

    const reply = await panel.get('/v1/sessions');
    expect(reply.status).toBe(200);
    const sessions = reply.body.data as Array<{ id: string; current: boolean; device_label: string }>;
    expect(sessions.map((session) => session.id)).not.toContain(ended.sessionId);
    expect(sessions).toHaveLength(2);
    expect(sessions.find((session) => session.current)!.id).not.toBe(api.sessionId);
    expect(sessions.find((session) => session.id === api.sessionId)!.current).toBe(false);
  });

  it('pages with page and page_size', async () => {
    const user = await createOwner(stack.ctx.db);
    const sessions = [await apiSession(user), await apiSession(user), await apiSession(user)];
    const token = sessions[0]!.token;
    const first = await list(token, '?page=1&page_size=2');
    expect(first.body.pagination).toEqual({ page: 1, page_size: 2, total: 3, total_pages: 2 });
    expect(first.body.data).toHaveLength(2);
    const second = await list(token, '?page=2&page_size=2');
    expect(second.body.pagination).toEqual({ page: 2, page_size: 2, total: 3, total_pages: 2 });
    expect(second.body.data).toHaveLength(1);
    const ids = [...first.body.data, ...second.body.data].map((session: { id: string }) => session.id);
    expect(ids.sort()).toEqual(sessions.map((session) => session.sessionId).sort());
    expect((await list(token, '?page=3&page_size=2')).body.data).toEqual([]);
  });

  it.each([
    ['page_size=101', 'page_size'],
    ['page=0', 'page'],
    ['page_size=abc', 'page_size'],
  ])('answers 422 on %s', async (query, field) => {
    const user = await createOwner(stack.ctx.db);
    const reply = await list((await apiSession(user)).token, `?${query}`);
    expectV1Error(reply, 422, 'VALIDATION_ERROR');
    expect(reply.body.error.details.fields.map((problem: { field: string }) => problem.field)).toEqual([field]);
  });

  it('answers 401 without credentials', async () => {
    expectV1Error(await stack.client().get('/v1/sessions'), 401, 'AUTHENTICATION_ERROR');
  });

  it('moves last_seen_at when the session authenticates a request, at most once a minute', async () => {
    const user = await createOwner(stack.ctx.db);
    const { token, sessionId } = await apiSession(user);
    const longAgo = new Date('2020-01-01T00:00:00Z');
    await stack.ctx.db('sessions').where({ id: sessionId }).update({ last_seen_at: longAgo });
    expect((await me(token)).status).toBe(200);
    const seen = new Date((await sessionRow(sessionId)).last_seen_at);
    expect(seen.getTime()).toBeGreaterThan(longAgo.getTime());

    await stack.ctx.db('sessions').where({ id: sessionId }).update({ last_seen_at: longAgo });
    expect((await me(token)).status).toBe(200);
    expect(new Date((await sessionRow(sessionId)).last_seen_at).toISOString()).toBe(longAgo.toISOString());
  });
});

// ---- DELETE /v1/sessions/{id} --------------------------------------------------------------------------

describe('DELETE /v1/sessions/{id}', () => {
  it("ends one of the caller's sessions: its access token answers 401 on its next request", async () => {
    const user = await createOwner(stack.ctx.db);
    const caller = await apiSession(user);
    const victim = await apiSession(user);
    expect((await me(victim.token)).status).toBe(200);

    const reply = await revokeOne(caller.token, victim.sessionId);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({ id: victim.sessionId, revoked_at: expect.stringMatching(ISO_UTC) });
    expectV1Error(await me(victim.token), 401, 'AUTHENTICATION_ERROR');
    expect((await me(caller.token)).status).toBe(200);
    expect((await sessionRow(victim.sessionId)).revoked_reason).toBe('revoked_by_user');
    expect((await list(caller.token)).body.data.map((session: { id: string }) => session.id)).toEqual([caller.sessionId]);
    // Ended: it is not found any more.
    expectV1Error(await revokeOne(caller.token, victim.sessionId), 404, 'NOT_FOUND');
  });

  it('ends the panel session and its refresh token too', async () => {
    const user = await createOwner(stack.ctx.db);
    const panel = stack.client();
    await signIn(panel, user);
    const api = await apiSession(user);
    const panelSession = (await list(api.token)).body.data.find((session: { current: boolean }) => !session.current);
    expect((await revokeOne(api.token, panelSession.id)).status).toBe(200);
    expect((await panel.get('/v1/me')).status).toBe(401);
    expect((await panel.post('/api/v1/auth/refresh')).status).toBe(401);
  });

  it("answers 404 for another user's session, which keeps working", async () => {
    const user = await createOwner(stack.ctx.db);
    const stranger = await apiSession(await createOwner(stack.ctx.db));
    const caller = await apiSession(user);
    expectV1Error(await revokeOne(caller.token, stranger.sessionId), 404, 'NOT_FOUND');
    expect((await me(stranger.token)).status).toBe(200);
    expect((await sessionRow(stranger.sessionId)).revoked_at).toBeNull();
  });

  it.each([
    ['an unknown id', randomUUID()],
    ['an id that is no UUID', 'not-a-session'],
  ])('answers 404 for %s', async (_label, id) => {
    const caller = await apiSession(await createOwner(stack.ctx.db));
    expectV1Error(await revokeOne(caller.token, id), 404, 'NOT_FOUND');
  });

  it('may end the current session: the caller is signed out', async () => {
    const caller = await apiSession(await createOwner(stack.ctx.db));
    expect((await revokeOne(caller.token, caller.sessionId)).status).toBe(200);
    expectV1Error(await me(caller.token), 401, 'AUTHENTICATION_ERROR');
  });
});

// ---- DELETE /v1/sessions -----------------------------------------------------------------------------

describe('DELETE /v1/sessions', () => {
  it('ends every other session of the caller, in every team, and keeps the current one', async () => {
    const user = await createOwner(stack.ctx.db);
    const second = await stack.ctx.db.transaction((trx) =>
      createTeamWithOwner(trx, { name: unique('Second'), slug: unique('second'), ownerUserId: user.userId }),
    );
    const panel = stack.client();
    await signIn(panel, user);
    const current = await apiSession(user);
    const others = [await apiSession(user), await apiSession(user, { teamId: second.team.id })];
    const stranger = await apiSession(await createOwner(stack.ctx.db));

    const reply = await revokeOthers(current.token);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({ revoked: 3 });
    expect((await me(current.token)).status).toBe(200);
    for (const other of others) expectV1Error(await me(other.token), 401, 'AUTHENTICATION_ERROR');
    expect((await panel.get('/v1/me')).status).toBe(401);
    expect((await me(stranger.token)).status).toBe(200);
    expect((await list(current.token)).body.data.map((session: { id: string }) => session.id)).toEqual([current.sessionId]);
    expect((await revokeOthers(current.token)).body.data).toEqual({ revoked: 0 });
  });

  it("works from the panel's cookie session (with its CSRF check)", async () => {
    const user = await createOwner(stack.ctx.db);
    const panel: Client = stack.client();
    await signIn(panel, user);
    const api = await apiSession(user);
    expect((await panel.request('DELETE', '/v1/sessions', { csrf: false })).status).toBe(403);
    const reply = await panel.request('DELETE', '/v1/sessions');
    expect(reply.body.data).toEqual({ revoked: 1 });
    expectV1Error(await me(api.token), 401, 'AUTHENTICATION_ERROR');
    expect((await panel.get('/v1/me')).status).toBe(200);
  });

  it("refuses API tokens: a script cannot list or sign out its creator's sessions", async () => {
    const user = await createOwner(stack.ctx.db);
    const api = await apiSession(user);
    const created = await stack.client().post('/v1/api-tokens', { name: 'sessions test', permissions: ['*'] }, bearer(api.token));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const apiToken: string = created.body.data.token;
    const session = (await list(api.token)).body.data[0];

    expectV1Error(await list(apiToken), 403, 'AUTHORIZATION_ERROR');
    expectV1Error(await revokeOthers(apiToken), 403, 'AUTHORIZATION_ERROR');
    expectV1Error(await revokeOne(apiToken, session.id), 403, 'AUTHORIZATION_ERROR');
    expect((await me(api.token)).status).toBe(200);
  });
});
