import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueUserToken } from '../../../shared/domains/auth/user-tokens.ts';
import { bearer, type Client } from '../../helpers/client.ts';
import { createOwner, signIn, type TestUser } from '../../helpers/factories.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { joinTeam } from '../../helpers/team-members.ts';

const CONFIRM = '/api/v1/auth/password-reset/confirm';
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ workers: false });
});
afterAll(async () => {
  await stack?.stop();
});

/**
 * Whoever held a stolen password could mint API tokens, which outlive a session sign-out: a reset
 * revokes them too unless the user says otherwise. The user is signed in to two teams (two
 * sessions, each a client holding its cookies); another user's session stands by.
 */
async function userWithTokens(): Promise<{ user: TestUser; secrets: string[]; bystander: string; sessions: Client[]; bystanderSession: Client }> {
  const user = await createOwner(stack.ctx.db);
  const otherTeam = await createOwner(stack.ctx.db);
  const inOther = await joinTeam(stack.ctx.db, user, otherTeam, 'admin');
  const secrets: string[] = [];
  const sessions: Client[] = [];
  for (const member of [user, inOther]) {
    const session = stack.client();
    await signIn(session, member);
    sessions.push(session);
    const created = await stack.client().post('/v1/api-tokens', { name: 'attacker', permissions: ['sites:read'] }, bearer(session.jar.get('svc_access')!));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    secrets.push(created.body.data.token);
  }
  // another member's token in the same team is not the user's: untouched
  const bystanderSession = stack.client();
  await signIn(bystanderSession, otherTeam);
  const created = await stack.client().post('/v1/api-tokens', { name: 'theirs', permissions: ['sites:read'] }, bearer(bystanderSession.jar.get('svc_access')!));
  return { user, secrets, bystander: created.body.data.token, sessions, bystanderSession };
}

const works = async (secret: string) => (await stack.client().get('/v1/me', bearer(secret))).status;

/** The session's access token on /v1 and a refresh of it, with the cookies the client holds. */
async function sessionAnswers(session: Client): Promise<{ access: number; refresh: number }> {
  const access = await works(session.jar.get('svc_access')!);
  const refresh = (await session.post('/api/v1/auth/refresh')).status;
  return { access, refresh };
}

/** Before the reset, every session works (and refreshes: the client now holds the rotated token). */
async function sessionsWork(sessions: Client[]): Promise<void> {
  for (const session of sessions) expect(await sessionAnswers(session)).toEqual({ access: 200, refresh: 200 });
}

/** After it, each of the user's sessions is revoked in Postgres, and neither its access token nor its refresh token works. */
async function sessionsEnded(user: TestUser, sessions: Client[]): Promise<void> {
  const rows = await stack.ctx.db('sessions').where({ user_id: user.userId }).select('revoked_at', 'revoked_reason');
  expect(rows).toHaveLength(sessions.length);
  for (const row of rows) expect(row).toMatchObject({ revoked_at: expect.any(Date), revoked_reason: 'password_reset' });
  for (const session of sessions) expect(await sessionAnswers(session)).toEqual({ access: 401, refresh: 401 });
}

describe('password reset and API tokens', () => {
  it('revokes every API token the user created, in every team, by default', async () => {
    const { user, secrets, bystander, sessions, bystanderSession } = await userWithTokens();
    for (const secret of [...secrets, bystander]) expect(await works(secret)).toBe(200);
    await sessionsWork([...sessions, bystanderSession]);
    const reply = await stack
      .client()
      .post(CONFIRM, { token: await issueUserToken(stack.ctx.db, user.userId, 'password_reset'), new_password: 'a fresh long passphrase' });
    expect(reply.status).toBe(200);
    expect(reply.body.message).toMatch(/2 API tokens were revoked/);
    for (const secret of secrets) expect(await works(secret)).toBe(401);
    expect(await works(bystander)).toBe(200);
    await sessionsEnded(user, sessions);
    // another user's session goes on
    expect(await sessionAnswers(bystanderSession)).toEqual({ access: 200, refresh: 200 });
    const entry = await stack.ctx
      .db('activity')
      .where({ action: 'auth.password_reset', target_id: String(user.userId) })
      .first();
    expect(entry.metadata).toMatchObject({ sessions_revoked: true, api_tokens_revoked: 2 });
  });

  it('keeps them with revoke_api_tokens: false (sessions still end)', async () => {
    const { user, secrets, sessions } = await userWithTokens();
    await sessionsWork(sessions);
    const reply = await stack.client().post(CONFIRM, {
      token: await issueUserToken(stack.ctx.db, user.userId, 'password_reset'),
      new_password: 'a fresh long passphrase',
      revoke_api_tokens: false,
    });
    expect(reply.status).toBe(200);
    expect(reply.body.message).not.toMatch(/revoked/);
    for (const secret of secrets) expect(await works(secret)).toBe(200);
    await sessionsEnded(user, sessions);
  });

  it('refuses a revoke_api_tokens that is not a boolean with 422 validation_error, and the token stays usable', async () => {
    const { user, secrets } = await userWithTokens();
    const token = await issueUserToken(stack.ctx.db, user.userId, 'password_reset');
    const reply = await stack.client().post(CONFIRM, { token, new_password: 'a fresh long passphrase', revoke_api_tokens: 'no' });
    expect(reply.status).toBe(422);
    expect(reply.body.code).toBe('validation_error');
    expect(await works(secrets[0]!)).toBe(200);
    expect((await stack.client().post(CONFIRM, { token, new_password: 'a fresh long passphrase' })).status).toBe(200);
  });
});
