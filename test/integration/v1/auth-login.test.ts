import { randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seal } from '../../../shared/crypto/sealed.ts';
import { base32Encode } from '../../../shared/domains/auth/totp/base32.ts';
import { totpCode, totpStep } from '../../../shared/domains/auth/totp/totp-code.ts';
import { createTeamWithOwner } from '../../../shared/domains/teams/teams.ts';
import { bearer, type Reply } from '../../helpers/client.ts';
import { expectV1Error } from '../../helpers/expect-error.ts';
import { createOwner, deviceFingerprint, newFingerprint, signIn, trustDevice, unique, type TestUser } from '../../helpers/factories.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { wrongCode } from '../../helpers/wrong-code.ts';

const LOGIN = '/v1/auth/login';
const CURL = 'curl/8.5.0';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

// ---- helpers -------------------------------------------------------------------------------------

/** POST /v1/auth/login, as a script (curl) sends it. */
function apiLogin(body: Record<string, unknown>): Promise<Reply> {
  return stack.client().post(LOGIN, body, { headers: { 'user-agent': CURL } });
}

/** The credentials of a user, from the device createOwner trusted. */
const credentials = (user: TestUser, extra: Record<string, unknown> = {}) => ({
  email: user.email,
  password: user.password,
  device_fingerprint: deviceFingerprint,
  ...extra,
});

async function sessionsOf(user: TestUser) {
  return stack.ctx.db('sessions').where({ user_id: user.userId }).orderBy('created_at');
}

/** Turns TOTP on for the user straight in the database; answers the key to compute codes with. */
async function enableTotp(user: TestUser): Promise<Buffer> {
  const key = randomBytes(20);
  await stack.ctx
    .db('users')
    .where({ id: user.userId })
    .update({
      totp_secret_sealed: seal(stack.ctx.config.secrets.secretKey, base32Encode(key)),
      totp_enabled_at: new Date(),
      totp_last_used_step: null,
    });
  return key;
}

/** Asks the auth surface for a device code and reads it from the e-mail. */
async function approveDevice(user: TestUser, preAuthToken: string, fingerprint: string): Promise<void> {
  const earlier = stack.mailbox.to(user.email).length;
  const challenge = await stack.client().post('/api/v1/auth/device/challenge', { pre_auth_token: preAuthToken, device_fingerprint: fingerprint });
  expect(challenge.status, JSON.stringify(challenge.body)).toBe(200);
  const code = (await stack.mailbox.waitForNth(user.email, /^/, earlier + 1)).text.match(/Code: (\d{6})/)![1]!;
  const approved = await stack.client().post('/api/v1/auth/device/approve', { pre_auth_token: preAuthToken, device_fingerprint: fingerprint, otp_code: code });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
}

// ---- the happy path -------------------------------------------------------------------------------

describe('POST /v1/auth/login', () => {
  it('answers a bearer access token for the only team; it works on GET /v1/me', async () => {
    const user = await createOwner(stack.ctx.db);
    const reply = await apiLogin(credentials(user));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(['data', 'meta']);
    expect(Object.keys(reply.body.data).sort()).toEqual(['access_token', 'expires_in', 'session_id', 'team_id', 'token_type', 'user_id']);
    expect(reply.body.data).toMatchObject({ token_type: 'Bearer', expires_in: 6 * 3600, team_id: user.teamId, user_id: user.userId });
    expect(reply.setCookies).toEqual([]);

    const claims = decodeJwt(reply.body.data.access_token);
    expect({ sub: claims.sub, sid: claims.sid, tid: claims.tid }).toEqual({ sub: String(user.userId), sid: reply.body.data.session_id, tid: user.teamId });
    expect(claims.exp! - claims.iat!).toBe(reply.body.data.expires_in);
    const me = await stack.client().get('/v1/me', bearer(reply.body.data.access_token));
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ user_id: user.userId, team_id: user.teamId, role_name: 'owner', email: user.email });
  });

  it("opens a session like the panel's, with its login activity, and hands out no refresh token", async () => {
    const user = await createOwner(stack.ctx.db);
    const reply = await apiLogin(credentials(user, { team_id: user.teamId }));
    expect(reply.status).toBe(200);
    const [session] = await sessionsOf(user);
    expect(session).toMatchObject({
      id: reply.body.data.session_id,
      team_id: user.teamId,
      user_agent: CURL,
      device_fingerprint: deviceFingerprint,
      second_factor_pending: false,
      revoked_at: null,
    });
    expect(JSON.stringify(reply.body)).not.toMatch(/refresh/);
    const activity = await stack.ctx.db('login_activity').where({ session_id: session.id });
    expect(activity.map((row) => row.event_type)).toEqual(['login']);
    // The session counts as live exactly as long as its access token.
    const refresh = await stack.ctx.db('refresh_tokens').where({ session_id: session.id }).first();
    expect(Math.abs(new Date(refresh.expires_at).getTime() - decodeJwt(reply.body.data.access_token).exp! * 1000)).toBeLessThan(60_000);
  });

  it('signs in to the team named by team_id when the user has several', async () => {
    const user = await createOwner(stack.ctx.db);
    const second = await stack.ctx.db.transaction((trx) =>
      createTeamWithOwner(trx, { name: unique('Second'), slug: unique('second'), ownerUserId: user.userId }),
    );
    const reply = await apiLogin(credentials(user, { team_id: second.team.id }));
    expect(reply.status).toBe(200);
    expect(reply.body.data.team_id).toBe(second.team.id);
    const me = await stack.client().get('/v1/me', bearer(reply.body.data.access_token));
    expect(me.body.data.team_id).toBe(second.team.id);
  });
});

// ---- credentials -----------------------------------------------------------------------------------

describe('POST /v1/auth/login: credentials', () => {
  it('answers the same 401 to a wrong password and to an unknown e-mail', async () => {
    const user = await createOwner(stack.ctx.db);
    const wrong = await apiLogin(credentials(user, { password: 'not the password' }));
    const unknown = await apiLogin(credentials(user, { email: `nobody-${user.email}` }));
    expectV1Error(wrong, 401, 'AUTHENTICATION_ERROR');
    expectV1Error(unknown, 401, 'AUTHENTICATION_ERROR');
    expect(wrong.body.error).toEqual(unknown.body.error);
    expect(await sessionsOf(user)).toEqual([]);
  });

  it('answers 403 email_not_verified to an unverified address with the right password', async () => {
    const user = await createOwner(stack.ctx.db, { verified: false });
    expectV1Error(await apiLogin(credentials(user)), 403, 'AUTHORIZATION_ERROR', { reason: 'email_not_verified', email: user.email });
  });

  it('answers the same 401 as a wrong password while the account is locked', async () => {
    const user = await createOwner(stack.ctx.db);
    for (let attempt = 0; attempt < 5; attempt++) expectV1Error(await apiLogin(credentials(user, { password: 'wrong' })), 401, 'AUTHENTICATION_ERROR');
    const locked = await apiLogin(credentials(user));
    expectV1Error(locked, 401, 'AUTHENTICATION_ERROR');
    expect(locked.body.error.message).toBe('Invalid e-mail or password');
  });

  it.each([
    ['no body', {}, ['email', 'password']],
    ['no password', { email: 'a@example.test' }, ['password']],
    ['a malformed e-mail', { email: 'not-an-address', password: 'x' }, ['email']],
    ['a TOTP code that is not 6 digits', { email: 'a@example.test', password: 'x', totp_code: '12345' }, ['totp_code']],
    ['a short device fingerprint', { email: 'a@example.test', password: 'x', device_fingerprint: 'short' }, ['device_fingerprint']],
    ['both a pre-auth token and a password', { email: 'a@example.test', password: 'x', pre_auth_token: 'p'.repeat(48) }, ['pre_auth_token']],
    ['a team_id that is not a number', { email: 'a@example.test', password: 'x', team_id: '1' }, ['team_id']],
  ])('answers 422 VALIDATION_ERROR for %s', async (_label, body, fields) => {
    const reply = await apiLogin(body);
    expectV1Error(reply, 422, 'VALIDATION_ERROR');
    expect(reply.body.error.details.fields.map((problem: { field: string }) => problem.field).sort()).toEqual(fields);
  });

  it('answers 401 to an unknown pre-auth token', async () => {
    expectV1Error(await apiLogin({ pre_auth_token: randomBytes(36).toString('base64url') }), 401, 'AUTHENTICATION_ERROR');
  });
});

// ---- teams -------------------------------------------------------------------------------------------

describe('POST /v1/auth/login: teams', () => {
  it('answers 422 on team_id, naming no team, when the user has several active teams and sent none', async () => {
    const user = await createOwner(stack.ctx.db);
    const second = await stack.ctx.db.transaction((trx) =>
      createTeamWithOwner(trx, { name: unique('Second'), slug: unique('second'), ownerUserId: user.userId }),
    );
    const reply = await apiLogin(credentials(user));
    expectV1Error(reply, 422, 'VALIDATION_ERROR');
    expect(reply.body.error.details.fields).toEqual([{ field: 'team_id', message: expect.stringContaining('choose one of your teams') }]);
    expect(JSON.stringify(reply.body)).not.toContain(user.teamName);
    expect(JSON.stringify(reply.body)).not.toContain(second.team.name);
    expect(await sessionsOf(user)).toEqual([]);
  });

  it('takes the only ACTIVE team when the other memberships are not active', async () => {
    const user = await createOwner(stack.ctx.db);
    const second = await stack.ctx.db.transaction((trx) =>
      createTeamWithOwner(trx, { name: unique('Second'), slug: unique('second'), ownerUserId: user.userId }),
    );
    await stack.ctx.db('memberships').where({ user_id: user.userId, team_id: second.team.id }).update({ status: 'SUSPENDED' });
    const reply = await apiLogin(credentials(user));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.data.team_id).toBe(user.teamId);
  });

  it('answers 403 missing_permission for a team the user is not an active member of, and opens nothing', async () => {
    const user = await createOwner(stack.ctx.db);
    const stranger = await createOwner(stack.ctx.db);
    expectV1Error(await apiLogin(credentials(user, { team_id: stranger.teamId })), 403, 'AUTHORIZATION_ERROR', { reason: 'missing_permission' });
    await stack.ctx.db('memberships').where({ user_id: user.userId }).update({ status: 'SUSPENDED' });
    expectV1Error(await apiLogin(credentials(user, { team_id: user.teamId })), 403, 'AUTHORIZATION_ERROR', { reason: 'missing_permission' });
    expectV1Error(await apiLogin(credentials(user)), 403, 'AUTHORIZATION_ERROR', { reason: 'missing_permission' });
    expect(await sessionsOf(user)).toEqual([]);
  });
});

// ---- two-factor ---------------------------------------------------------------------------------------

describe('POST /v1/auth/login: TOTP', () => {
  it('answers 401 totp_required without totp_code, and opens no session', async () => {
    const user = await createOwner(stack.ctx.db);
    await enableTotp(user);
    expectV1Error(await apiLogin(credentials(user)), 401, 'AUTHENTICATION_ERROR', { reason: 'totp_required' });
    expect(await sessionsOf(user)).toEqual([]);
  });

  it('answers 401 to a wrong code and leaves no usable or pending session behind', async () => {
    const user = await createOwner(stack.ctx.db);
    const key = await enableTotp(user);
    const reply = await apiLogin(credentials(user, { totp_code: wrongCode((step) => totpCode(key, step)) }));
    expectV1Error(reply, 401, 'AUTHENTICATION_ERROR');
    expect(reply.body.error.details).toEqual({});
    const sessions = await sessionsOf(user);
    expect(sessions.every((session) => session.revoked_at !== null)).toBe(true);
    expect((await stack.ctx.db('users').where({ id: user.userId }).first('failed_auth_count')).failed_auth_count).toBeGreaterThan(0);
  });

  it('signs in with the right code: the session is complete, and the same code does not work twice', async () => {
    const user = await createOwner(stack.ctx.db);
    const key = await enableTotp(user);
    const code = totpCode(key, totpStep(Date.now()));
    const reply = await apiLogin(credentials(user, { totp_code: code }));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const session = await stack.ctx.db('sessions').where({ id: reply.body.data.session_id }).first();
    expect(session).toMatchObject({ second_factor_pending: false, revoked_at: null });
    const me = await stack.client().get('/v1/me', bearer(reply.body.data.access_token));
    expect(me.status).toBe(200);
    expect(me.body.data.two_factor_enabled).toBe(true);

    expectV1Error(await apiLogin(credentials(user, { totp_code: code })), 401, 'AUTHENTICATION_ERROR');
  });
});

// ---- gates --------------------------------------------------------------------------------------------

describe('POST /v1/auth/login: new devices', () => {
  it('answers 403 device_approval_required with the pre-auth token; approved through the auth surface, the retry signs in', async () => {
    const user = await createOwner(stack.ctx.db);
    const fingerprint = newFingerprint();
    const paused = await apiLogin(credentials(user, { device_fingerprint: fingerprint }));
    expectV1Error(paused, 403, 'AUTHORIZATION_ERROR', { reason: 'device_approval_required', device_fingerprint: fingerprint });
    const preAuthToken: string = paused.body.error.details.pre_auth_token;
    expect(preAuthToken).toMatch(/^[A-Za-z0-9_-]{48}$/);
    expect(await sessionsOf(user)).toEqual([]);

    await approveDevice(user, preAuthToken, fingerprint);
    const reply = await apiLogin({ pre_auth_token: preAuthToken, device_fingerprint: fingerprint });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.data).toMatchObject({ user_id: user.userId, team_id: user.teamId });
    // The pre-auth token is spent; the device is trusted now, so the password alone works from it.
    expectV1Error(await apiLogin({ pre_auth_token: preAuthToken, device_fingerprint: fingerprint }), 401, 'AUTHENTICATION_ERROR');
    expect((await apiLogin(credentials(user, { device_fingerprint: fingerprint }))).status).toBe(200);
  });

  it('without a device_fingerprint, treats the caller as a new device and names the fingerprint it got', async () => {
    const user = await createOwner(stack.ctx.db);
    const paused = await apiLogin({ email: user.email, password: user.password });
    expectV1Error(paused, 403, 'AUTHORIZATION_ERROR', { reason: 'device_approval_required' });
    const { device_fingerprint: fingerprint, pre_auth_token: preAuthToken } = paused.body.error.details;
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    await approveDevice(user, preAuthToken, fingerprint);
    expect((await apiLogin(credentials(user, { device_fingerprint: fingerprint }))).status).toBe(200);
  });

  it('asks for the TOTP code only after the device is approved, and still requires it on the retry', async () => {
    const user = await createOwner(stack.ctx.db);
    const key = await enableTotp(user);
    const fingerprint = newFingerprint();
    const noCode = await apiLogin(credentials(user, { device_fingerprint: fingerprint }));
    expectV1Error(noCode, 401, 'AUTHENTICATION_ERROR', { reason: 'totp_required' });
    const paused = await apiLogin(credentials(user, { device_fingerprint: fingerprint, totp_code: wrongCode((step) => totpCode(key, step)) }));
    expectV1Error(paused, 403, 'AUTHORIZATION_ERROR', { reason: 'device_approval_required' });
    const preAuthToken: string = paused.body.error.details.pre_auth_token;
    await approveDevice(user, preAuthToken, fingerprint);
    expectV1Error(await apiLogin({ pre_auth_token: preAuthToken, device_fingerprint: fingerprint }), 401, 'AUTHENTICATION_ERROR', { reason: 'totp_required' });
    const reply = await apiLogin({ pre_auth_token: preAuthToken, device_fingerprint: fingerprint, totp_code: totpCode(key, totpStep(Date.now())) });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  });
});

describe('POST /v1/auth/login: concurrent logins', () => {
  it('answers 403 concurrent_login_pending with its token; approved from the live session, the retry signs in', async () => {
    const user = await createOwner(stack.ctx.db);
    const panel = stack.client();
    await signIn(panel, user);
    const otherDevice = newFingerprint();
    await trustDevice(stack.ctx.db, user.userId, otherDevice);

    const paused = await apiLogin(credentials(user, { device_fingerprint: otherDevice }));
    expectV1Error(paused, 403, 'AUTHORIZATION_ERROR', { reason: 'concurrent_login_pending', device_fingerprint: otherDevice });
    const { token, pre_auth_token: preAuthToken } = paused.body.error.details;
    expect(typeof token).toBe('string');
    expect(typeof preAuthToken).toBe('string');
    // Still pending: the retry answers the same token.
    const again = await apiLogin({ pre_auth_token: preAuthToken, device_fingerprint: otherDevice });
    expectV1Error(again, 403, 'AUTHORIZATION_ERROR', { reason: 'concurrent_login_pending', token });

    const approved = await panel.post('/api/v1/auth/concurrent-login/approve', { token });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const reply = await apiLogin({ pre_auth_token: preAuthToken, device_fingerprint: otherDevice });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect((await stack.client().get('/v1/me', bearer(reply.body.data.access_token))).status).toBe(200);
  });

  it('answers 403 concurrent_login_denied once the live session denied it', async () => {
    const user = await createOwner(stack.ctx.db);
    const panel = stack.client();
    await signIn(panel, user);
    const otherDevice = newFingerprint();
    await trustDevice(stack.ctx.db, user.userId, otherDevice);
    const paused = await apiLogin(credentials(user, { device_fingerprint: otherDevice }));
    const { token, pre_auth_token: preAuthToken } = paused.body.error.details;
    expect((await panel.post('/api/v1/auth/concurrent-login/deny', { token })).status).toBe(200);
    expectV1Error(await apiLogin({ pre_auth_token: preAuthToken, device_fingerprint: otherDevice }), 403, 'AUTHORIZATION_ERROR', {
      reason: 'concurrent_login_denied',
    });
  });
});

// ---- rate limit ---------------------------------------------------------------------------------------

describe('POST /v1/auth/login: rate limit', () => {
  let limited: Stack;
  beforeAll(async () => {
    limited = await startStack({ workers: false, env: { RATE_LIMIT_LOGIN: '3/1m' } });
  });
  afterAll(async () => {
    await limited?.stop();
  });

  it("shares the per-IP login limit with the panel's /login", async () => {
    const client = limited.client();
    const body = { email: 'nobody@example.test', password: 'wrong' };
    expect((await client.post('/api/v1/auth/login', body)).status).toBe(401);
    expect((await client.post(LOGIN, body)).status).toBe(401);
    const last = await client.post(LOGIN, body);
    expect(last.status).toBe(401);
    expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
    const refused = await client.post(LOGIN, body);
    expectV1Error(refused, 429, 'RATE_LIMIT_EXCEEDED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('POST /v1/auth/login with an Idempotency-Key', () => {
  it('keeps no access token for replays: a repeat signs in again', async () => {
    const user = await createOwner(stack.ctx.db);
    const headers = { 'user-agent': CURL, 'idempotency-key': unique('key') };
    const first = await stack.client().post(LOGIN, credentials(user), { headers });
    const second = await stack.client().post(LOGIN, credentials(user), { headers });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.data.session_id).not.toBe(first.body.data.session_id);
    for (const key of await stack.ctx.redis.keys(`${stack.ctx.config.redisPrefix}:idem:*`)) {
      expect(await stack.ctx.redis.get(key)).not.toContain(first.body.data.access_token);
    }
  });
});
