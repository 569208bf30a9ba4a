import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, exportJWK, SignJWT, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type Reply, type RequestOptions, type SetCookie } from '../../helpers/client.ts';
import { expectAuthError } from '../../helpers/expect-error.ts';
import { createOwner, deviceFingerprint, exchange, login, preAuthTokenOf, signedInClient, signIn, uniqueEmail } from '../../helpers/factories.ts';
import { overlapped } from '../../helpers/lock-barrier.ts';
import { sha256Hex } from '../../helpers/sha256.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';

const AUTH = '/api/v1/auth';
const ACCESS_TTL_SECONDS = 6 * 3600;
const REFRESH_TTL_SECONDS = 24 * 3600;
const REMEMBERED_REFRESH_TTL_SECONDS = 7 * 24 * 3600;
const SESSION_INFO = { device_fingerprint: deviceFingerprint, ip: '203.0.113.7', user_agent: 'vitest', geo: { city: 'Lisbon', country: 'PT' } };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

// ---- helpers -------------------------------------------------------------------------------------

function base64urlJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** Every printable ASCII character as its fullwidth form (NFKC maps them back). */
function fullwidth(text: string): string {
  return text.replace(/[!-~]/g, (char) => String.fromCharCode(char.charCodeAt(0) + 0xfee0));
}

/** The session cookies a client holds right now. */
function cookiesOf(client: Client): { access: string; refresh: string; csrf: string } {
  const [access, refresh, csrf] = ['svc_access', 'svc_refresh', 'svc_csrf'].map((name) => client.jar.get(name));
  if (!access || !refresh || !csrf) throw new Error(`client lacks session cookies: ${[...client.jar.keys()].join(', ')}`);
  return { access, refresh, csrf };
}

function sessionIdOf(client: Client): string {
  return decodeJwt(cookiesOf(client).access).sid as string;
}

function setCookie(reply: Reply, name: string): SetCookie {
  const found = reply.setCookies.find((cookie) => cookie.name === name);
  if (!found) throw new Error(`no Set-Cookie for ${name} (got ${reply.setCookies.map((cookie) => cookie.name).join(', ') || 'none'})`);
  return found;
}

function isCleared(cookie: SetCookie): boolean {
  const expires = cookie.attributes.expires;
  return cookie.value === '' && (cookie.attributes['max-age'] === '0' || (typeof expires === 'string' && Date.parse(expires) <= Date.now()));
}

function postRefresh(client: Client, options: RequestOptions = {}): Promise<Reply> {
  return client.post(`${AUTH}/refresh`, undefined, options);
}

/** A refresh with exactly these cookies (and the matching CSRF header), whatever the jar holds. */
function refreshWith(client: Client, cookies: { refresh: string; csrf: string }): Promise<Reply> {
  return postRefresh(client, { headers: { cookie: `svc_refresh=${cookies.refresh}; svc_csrf=${cookies.csrf}`, 'x-csrf-token': cookies.csrf } });
}

function meWithAccessToken(client: Client, token: string): Promise<Reply> {
  return client.get(`${AUTH}/me`, { headers: { cookie: `svc_access=${token}` } });
}

type JwtHeader = { alg: string; typ: string; kid: string };

function signToken(key: KeyObject, header: JwtHeader, payload: JWTPayload): Promise<string> {
  return new SignJWT(payload).setProtectedHeader(header).sign(key);
}

/** A signed-in client with its real access token, decoded for the forgery tests to re-sign. */
async function signedInWithAccessToken() {
  const { user: owner, client } = await signedInClient(stack);
  const token = cookiesOf(client).access;
  return { owner, client, token, header: decodeProtectedHeader(token) as JwtHeader, claims: decodeJwt(token) };
}

/** Logs in until the limiter answers 429 (the budget may be partly spent by an earlier test). */
async function spendLoginBudget(client: Client, headers: Record<string, string> = {}): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    if ((await login(client, { email: uniqueEmail(), password: 'not the password' }, { headers })).status === 429) return;
  }
  throw new Error('the login rate limit never answered 429');
}

// ---- POST /login ---------------------------------------------------------------------------------

describe('POST /login', () => {
  it('returns a 48-character pre-auth token and the teams of the user', async () => {
    const owner = await createOwner(stack.ctx.db);
    const reply = await login(stack.client(), owner);
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(['pre_auth_token', 'teams']);
    expect(reply.body.pre_auth_token).toMatch(/^[A-Za-z0-9_-]{48}$/);
    expect(reply.body.teams).toEqual([{ team_id: owner.teamId, team_name: owner.teamName, role_name: 'owner', status: 'ACTIVE' }]);
  });

  it('stores the pre-auth token only as its SHA-256, valid for 10 minutes', async () => {
    const owner = await createOwner(stack.ctx.db);
    const token = await preAuthTokenOf(stack.client(), owner);
    const rows = await stack.ctx.db('pre_auth_tokens').where({ user_id: owner.userId });
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(sha256Hex(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    const lifetimeMs = new Date(rows[0].expires_at).getTime() - new Date(rows[0].created_at).getTime();
    expect(Math.abs(lifetimeMs - 10 * 60_000)).toBeLessThan(5_000);
  });

  it('answers an unknown e-mail exactly like a wrong password', async () => {
    const owner = await createOwner(stack.ctx.db);
    const client = stack.client();
    const wrongPassword = await login(client, { email: owner.email, password: 'not the password' });
    const unknownEmail = await login(client, { email: uniqueEmail(), password: owner.password });
    expectAuthError(wrongPassword, 401, 'not_authenticated');
    expect(unknownEmail.status).toBe(wrongPassword.status);
    expect(unknownEmail.body).toEqual(wrongPassword.body);
  });

  it('compares the e-mail case-insensitively', async () => {
    const owner = await createOwner(stack.ctx.db);
    const reply = await login(stack.client(), { email: owner.email.toUpperCase(), password: owner.password });
    expect(reply.status).toBe(200);
    expect(reply.body.teams.map((team: { team_id: number }) => team.team_id)).toEqual([owner.teamId]);
  });

  it('compares the e-mail after NFKC normalisation (fullwidth input)', async () => {
    const owner = await createOwner(stack.ctx.db);
    const reply = await login(stack.client(), { email: fullwidth(owner.email), password: owner.password });
    expect(reply.status).toBe(200);
    expect(reply.body.teams.map((team: { team_id: number }) => team.team_id)).toEqual([owner.teamId]);
  });

  it('asks an unverified user to verify: 422 {detail, email, code}, only with the right password', async () => {
    const user = await createOwner(stack.ctx.db, { verified: false });
    const reply = await login(stack.client(), user);
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({ detail: expect.any(String), email: user.email, code: 'validation_error' });
    expect(await stack.ctx.db('pre_auth_tokens').where({ user_id: user.userId })).toHaveLength(0);
    expectAuthError(await login(stack.client(), { email: user.email, password: 'not the password' }), 401, 'not_authenticated');
  });

  it('rejects bodies of the wrong shape with 422', async () => {
    const owner = await createOwner(stack.ctx.db);
    const client = stack.client();
    const bodies: unknown[] = [
      { email: 5, password: owner.password },
      { email: owner.email, password: null },
      { email: owner.email },
      { password: owner.password },
      {},
      [],
      { email: owner.email, password: owner.password, remember_me: 'yes' },
    ];
    for (const body of bodies) {
      const reply = await client.post(`${AUTH}/login`, body);
      expect({ body, status: reply.status, code: reply.body?.code }).toEqual({ body, status: 422, code: 'validation_error' });
    }
  });

  it('treats SQL-looking input as plain data', async () => {
    const owner = await createOwner(stack.ctx.db);
    const client = stack.client();
    const injection = "' OR 1=1 --";
    expectAuthError(await login(client, { email: injection, password: injection }), 422, 'validation_error');
    expectAuthError(await login(client, { email: owner.email, password: injection }), 401, 'not_authenticated');
    expectAuthError(await login(client, { email: "o'brien'--@example.test", password: injection }), 401, 'not_authenticated');
  });

  it('answers malformed JSON with 422', async () => {
    const reply = await stack.client().post(`${AUTH}/login`, undefined, { raw: '{"email": "a@example.test", "password": ', contentType: 'application/json' });
    expectAuthError(reply, 422, 'validation_error');
  });

  it('refuses a body over 16 kB with 413 but reads one just under it', async () => {
    const client = stack.client();
    const over = await login(client, { email: uniqueEmail(), password: 'x'.repeat(17 * 1024) });
    expectAuthError(over, 413, 'payload_too_large');
    // Under the limit the body is parsed, and the over-long password is a validation error.
    const under = await login(client, { email: uniqueEmail(), password: 'x'.repeat(15 * 1024) });
    expectAuthError(under, 422, 'validation_error');
  });
});

describe('POST /login rate limit (3 per minute per IP, no trusted proxy)', () => {
  let limited: Stack;
  beforeAll(async () => {
    limited = await startStack({ env: { RATE_LIMIT_LOGIN: '3/1m' }, workers: false });
  });
  afterAll(async () => {
    await limited?.stop();
  });

  it('counts attempts in X-RateLimit-* headers, then answers 429 with Retry-After', async () => {
    const owner = await createOwner(limited.ctx.db);
    const client = limited.client();
    const startedAt = Math.floor(Date.now() / 1000);
    for (const remaining of ['2', '1', '0']) {
      const reply = await login(client, { email: uniqueEmail(), password: 'not the password' });
      expect(reply.status).toBe(401);
      expect(reply.headers.get('x-ratelimit-limit')).toBe('3');
      expect(reply.headers.get('x-ratelimit-remaining')).toBe(remaining);
      const reset = Number(reply.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThanOrEqual(startedAt);
      expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60); // the window opened at the first request
    }
    // Even the right password is refused once the budget is spent.
    const blocked = await login(client, owner);
    expectAuthError(blocked, 429, 'rate_limit_exceeded');
    expect(blocked.headers.get('x-ratelimit-remaining')).toBe('0');
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('ignores X-Forwarded-For: a spoofed address gets no new budget', async () => {
    const owner = await createOwner(limited.ctx.db);
    const client = limited.client();
    await spendLoginBudget(client);
    expectAuthError(await login(client, owner, { headers: { 'x-forwarded-for': '198.51.100.23' } }), 429, 'rate_limit_exceeded');
  });
});

describe('POST /login rate limit behind a trusted proxy', () => {
  let proxied: Stack;
  beforeAll(async () => {
    proxied = await startStack({ env: { RATE_LIMIT_LOGIN: '3/1m', TRUSTED_PROXIES: '127.0.0.1' }, workers: false });
  });
  afterAll(async () => {
    await proxied?.stop();
  });

  it('counts per forwarded client address', async () => {
    const owner = await createOwner(proxied.ctx.db);
    const client = proxied.client();
    await spendLoginBudget(client, { 'x-forwarded-for': '198.51.100.1' });
    expectAuthError(await login(client, owner, { headers: { 'x-forwarded-for': '198.51.100.1' } }), 429, 'rate_limit_exceeded');

    const other = await login(client, owner, { headers: { 'x-forwarded-for': '198.51.100.2' } });
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('2');
    const row = await proxied.ctx
      .db('pre_auth_tokens')
      .where({ token_hash: sha256Hex(other.body.pre_auth_token) })
      .first();
    expect(row.ip).toBe('198.51.100.2');
  });
});

// ---- POST /session-exchange ----------------------------------------------------------------------

describe('POST /session-exchange', () => {
  it('returns the current user in the chosen team', async () => {
    const { user: owner, exchanged } = await signedInClient(stack);
    const ownerRole = await stack.ctx.db('roles').whereNull('team_id').where({ name: 'owner' }).first();
    expect(exchanged.status).toBe(200);
    expect(exchanged.body).toEqual({
      user_id: owner.userId,
      user_name: owner.name,
      team_id: owner.teamId,
      team_name: owner.teamName,
      role_id: ownerRole.id,
      role_name: 'owner',
      permissions: ['*'],
    });
  });

  it('sets svc_access (6 h), svc_refresh (1 day) and a script-readable svc_csrf', async () => {
    const { exchanged } = await signedInClient(stack);
    const access = setCookie(exchanged, 'svc_access');
    const refresh = setCookie(exchanged, 'svc_refresh');
    const csrf = setCookie(exchanged, 'svc_csrf');
    expect(access.attributes).toMatchObject({ httponly: true, 'max-age': String(ACCESS_TTL_SECONDS) });
    expect(refresh.attributes).toMatchObject({ httponly: true, 'max-age': String(REFRESH_TTL_SECONDS) });
    expect(csrf.attributes.httponly).toBeUndefined();
    for (const cookie of [access, refresh, csrf]) {
      expect(cookie.attributes.path).toBe('/');
      expect(String(cookie.attributes.samesite).toLowerCase()).toBe('lax');
      expect(cookie.attributes.domain).toBeUndefined();
      expect(cookie.attributes.secure).toBeUndefined(); // PUBLIC_URL is http in the test config
    }
    expect(access.value.split('.')).toHaveLength(3);
    expect(refresh.value.length).toBeGreaterThanOrEqual(32);
    expect(csrf.value.length).toBeGreaterThanOrEqual(32);
    expect(new Set([access.value, refresh.value, csrf.value]).size).toBe(3);
  });

  it('keeps the refresh cookie for 7 days with remember_me', async () => {
    const { exchanged } = await signedInClient(stack, { rememberMe: true });
    expect(setCookie(exchanged, 'svc_refresh').attributes['max-age']).toBe(String(REMEMBERED_REFRESH_TTL_SECONDS));
    expect(setCookie(exchanged, 'svc_access').attributes['max-age']).toBe(String(ACCESS_TTL_SECONDS));
  });

  it('accepts a pre-auth token only once', async () => {
    const owner = await createOwner(stack.ctx.db);
    const client = stack.client();
    const token = await preAuthTokenOf(client, owner);
    expect((await exchange(client, token, owner.teamId)).status).toBe(200);
    expectAuthError(await exchange(stack.client(), token, owner.teamId), 401, 'not_authenticated');
  });

  it("binds the token to its user: B's token cannot open A's team", async () => {
    const a = await createOwner(stack.ctx.db);
    const b = await createOwner(stack.ctx.db);
    const client = stack.client();
    const tokenOfB = await preAuthTokenOf(client, b);
    expectAuthError(await exchange(client, tokenOfB, a.teamId), 403, 'missing_permission');
    expect(await stack.ctx.db('sessions').where({ user_id: b.userId })).toHaveLength(0);
    expect(client.jar.size).toBe(0);
  });

  it('refuses a team the user is not in without consuming the token', async () => {
    const owner = await createOwner(stack.ctx.db);
    const stranger = await createOwner(stack.ctx.db);
    const client = stack.client();
    const token = await preAuthTokenOf(client, owner);
    expectAuthError(await exchange(client, token, stranger.teamId), 403, 'missing_permission');
    const retry = await exchange(client, token, owner.teamId);
    expect(retry.status).toBe(200);
    expect(retry.body.team_id).toBe(owner.teamId);
  });

  it('refuses an expired pre-auth token', async () => {
    const owner = await createOwner(stack.ctx.db);
    const client = stack.client();
    const token = await preAuthTokenOf(client, owner);
    await stack.ctx
      .db('pre_auth_tokens')
      .where({ token_hash: sha256Hex(token) })
      .update({ expires_at: new Date(Date.now() - 60_000) });
    expectAuthError(await exchange(client, token, owner.teamId), 401, 'not_authenticated');
  });

  it('refuses a SUSPENDED membership', async () => {
    const owner = await createOwner(stack.ctx.db);
    const client = stack.client();
    const token = await preAuthTokenOf(client, owner);
    await stack.ctx.db('memberships').where({ user_id: owner.userId, team_id: owner.teamId }).update({ status: 'SUSPENDED' });
    expectAuthError(await exchange(client, token, owner.teamId), 403, 'missing_permission');
  });

  it('rejects invalid team_id, session_info and token types with 422, without consuming the token', async () => {
    const owner = await createOwner(stack.ctx.db);
    const client = stack.client();
    const token = await preAuthTokenOf(client, owner);
    const valid = { pre_auth_token: token, team_id: owner.teamId, session_info: SESSION_INFO };
    const bodies: unknown[] = [
      { ...valid, team_id: String(owner.teamId) },
      { ...valid, team_id: 1.5 },
      { ...valid, team_id: -1 },
      { pre_auth_token: token, session_info: SESSION_INFO },
      { pre_auth_token: token, team_id: owner.teamId },
      { ...valid, session_info: 'laptop' },
      { ...valid, session_info: { ...SESSION_INFO, device_fingerprint: 5 } },
      { ...valid, session_info: { ...SESSION_INFO, geo: 'Lisbon' } },
      { ...valid, pre_auth_token: 12345 },
    ];
    for (const body of bodies) {
      const reply = await client.post(`${AUTH}/session-exchange`, body);
      expect({ body, status: reply.status, code: reply.body?.code }).toEqual({ body, status: 422, code: 'validation_error' });
    }
    expect((await exchange(client, token, owner.teamId)).status).toBe(200);
  });
});

describe('POST /session-exchange behind an https PUBLIC_URL', () => {
  const httpsPanel = 'https://panel.berth.test';
  let secure: Stack;
  beforeAll(async () => {
    secure = await startStack({ env: { PUBLIC_URL: httpsPanel }, workers: false });
  });
  afterAll(async () => {
    await secure?.stop();
  });

  it('marks every session cookie Secure, and CSRF expects the https origin', async () => {
    const owner = await createOwner(secure.ctx.db);
    const client = new Client(secure.api.url, httpsPanel, { contract: true });
    const exchanged = await signIn(client, owner);
    for (const name of ['svc_access', 'svc_refresh', 'svc_csrf']) {
      expect(setCookie(exchanged, name).attributes).toMatchObject({ secure: true, path: '/' });
    }
    expectAuthError(await postRefresh(client, { origin: 'http://panel.berth.test' }), 403, 'csrf_mismatch');
    expect((await postRefresh(client)).status).toBe(200);
  });
});

// ---- GET /me -------------------------------------------------------------------------------------

describe('GET /me', () => {
  it('returns the current user with the access cookie', async () => {
    const { client, exchanged } = await signedInClient(stack);
    const me = await client.get(`${AUTH}/me`);
    expect(me.status).toBe(200);
    expect(me.body).toEqual(exchanged.body);
  });

  it('answers 401 without a session', async () => {
    expectAuthError(await stack.client().get(`${AUTH}/me`), 401, 'not_authenticated');
  });

  it('is given an EdDSA at+jwt with kid, issuer, audience, subject, session, team and a 6 h lifetime', async () => {
    const { owner, header, claims } = await signedInWithAccessToken();
    const publicJwk = await exportJWK(createPublicKey(stack.ctx.config.secrets.jwtPrivateKey));
    expect(header).toEqual({ alg: 'EdDSA', typ: 'at+jwt', kid: await calculateJwkThumbprint(publicJwk, 'sha256') });
    const session = await stack.ctx.db('sessions').where({ user_id: owner.userId }).first();
    expect(claims).toMatchObject({ iss: stack.ctx.config.publicUrl, aud: 'berth-api', sub: String(owner.userId), sid: session.id, tid: owner.teamId });
    expect(claims.exp! - claims.iat!).toBe(ACCESS_TTL_SECONDS);
  });

  it('rejects the same claims signed by a foreign Ed25519 key', async () => {
    const { client, header, claims } = await signedInWithAccessToken();
    const foreignKey = generateKeyPairSync('ed25519').privateKey;
    expectAuthError(await meWithAccessToken(client, await signToken(foreignKey, header, claims)), 401, 'not_authenticated');
    // The control: the very same claims signed with the real key pass.
    expect((await meWithAccessToken(client, await signToken(stack.ctx.config.secrets.jwtPrivateKey, header, claims))).status).toBe(200);
  });

  it('rejects an alg:none token', async () => {
    const { client, token, header } = await signedInWithAccessToken();
    const unsigned = `${base64urlJson({ ...header, alg: 'none' })}.${token.split('.')[1]}.`;
    expectAuthError(await meWithAccessToken(client, unsigned), 401, 'not_authenticated');
  });

  it('rejects a token whose payload was altered', async () => {
    const { client, token, claims } = await signedInWithAccessToken();
    const [header, , signature] = token.split('.');
    const tampered = `${header}.${base64urlJson({ ...claims, tid: Number(claims.tid) + 1 })}.${signature}`;
    expectAuthError(await meWithAccessToken(client, tampered), 401, 'not_authenticated');
  });

  it('rejects an expired token signed with the real key', async () => {
    const { client, header, claims } = await signedInWithAccessToken();
    const now = Math.floor(Date.now() / 1000);
    const expired = await signToken(stack.ctx.config.secrets.jwtPrivateKey, header, { ...claims, iat: now - 7 * 3600, exp: now - 3600 });
    expectAuthError(await meWithAccessToken(client, expired), 401, 'not_authenticated');
  });

  it('rejects real-key tokens with the wrong issuer, audience or type', async () => {
    const { client, header, claims } = await signedInWithAccessToken();
    const key = stack.ctx.config.secrets.jwtPrivateKey;
    const variants = [
      await signToken(key, header, { ...claims, iss: 'https://elsewhere.example' }),
      await signToken(key, header, { ...claims, aud: 'another-api' }),
      await signToken(key, { ...header, typ: 'JWT' }, claims),
    ];
    for (const token of variants) expectAuthError(await meWithAccessToken(client, token), 401, 'not_authenticated');
  });
});

// ---- POST /refresh -------------------------------------------------------------------------------

describe('POST /refresh', () => {
  it('rotates the refresh token and re-issues the cookies', async () => {
    const { client } = await signedInClient(stack);
    const before = cookiesOf(client);
    const reply = await postRefresh(client);
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(['access_token', 'refresh_token']);
    expect(reply.body.refresh_token).not.toBe(before.refresh);
    expect(setCookie(reply, 'svc_refresh').value).toBe(reply.body.refresh_token);
    expect(setCookie(reply, 'svc_access').value).toBe(reply.body.access_token);
    expect(setCookie(reply, 'svc_refresh').attributes).toMatchObject({ httponly: true, 'max-age': String(REFRESH_TTL_SECONDS), path: '/' });
    expect(decodeJwt(reply.body.access_token).sid).toBe(decodeJwt(before.access).sid);
    expect((await client.get(`${AUTH}/me`)).status).toBe(200);
  });

  it('records the refresh in login_activity', async () => {
    const { user: owner, client } = await signedInClient(stack);
    const sessionId = sessionIdOf(client);
    expect((await postRefresh(client)).status).toBe(200);
    const rows = await stack.ctx.db('login_activity').where({ session_id: sessionId }).orderBy('id');
    expect(rows.map((row) => row.event_type)).toEqual(['login', 'refresh']);
    expect(rows[1]).toMatchObject({ user_id: owner.userId, ip: '127.0.0.1', device_fingerprint: deviceFingerprint });
  });

  it('refuses a missing CSRF header with 403 csrf_mismatch', async () => {
    const { client } = await signedInClient(stack);
    expectAuthError(await postRefresh(client, { csrf: false }), 403, 'csrf_mismatch');
    expect((await postRefresh(client)).status).toBe(200); // the refused attempt did not spend the token
  });

  it('refuses a CSRF header that does not match the cookie', async () => {
    const { client } = await signedInClient(stack);
    expectAuthError(await postRefresh(client, { headers: { 'x-csrf-token': 'A'.repeat(43) } }), 403, 'csrf_mismatch');
    expect((await postRefresh(client)).status).toBe(200);
  });

  it('refuses a request from another origin', async () => {
    const { client } = await signedInClient(stack);
    expectAuthError(await postRefresh(client, { origin: 'https://evil.example' }), 403, 'csrf_mismatch');
    expect((await postRefresh(client)).status).toBe(200);
  });

  it('refuses a request with neither Origin nor Referer, and accepts a panel Referer', async () => {
    const { client } = await signedInClient(stack);
    expectAuthError(await postRefresh(client, { origin: null }), 403, 'csrf_mismatch');
    expectAuthError(await postRefresh(client, { origin: null, headers: { referer: 'https://evil.example/page' } }), 403, 'csrf_mismatch');
    expect((await postRefresh(client, { origin: null, headers: { referer: `${client.panelOrigin}/sites` } })).status).toBe(200);
  });

  it('answers 401 without a refresh cookie', async () => {
    expectAuthError(await postRefresh(stack.client()), 401, 'not_authenticated');
  });

  it('treats a rotated token presented again as a replay and ends the whole session', async () => {
    const { client } = await signedInClient(stack);
    const first = cookiesOf(client);
    expect((await postRefresh(client)).status).toBe(200);
    const second = cookiesOf(client);

    expectAuthError(await refreshWith(client, first), 401, 'not_authenticated');
    expectAuthError(await refreshWith(client, second), 401, 'not_authenticated');
    expectAuthError(await meWithAccessToken(client, second.access), 401, 'not_authenticated');
    expectAuthError(await meWithAccessToken(client, first.access), 401, 'not_authenticated');
    const session = await stack.ctx
      .db('sessions')
      .where({ id: decodeJwt(first.access).sid as string })
      .first();
    expect(session.revoked_at).not.toBeNull();
  });

  it('lets exactly one of five parallel refreshes of the same token through; the others are replays', async () => {
    const { client } = await signedInClient(stack);
    const cookies = cookiesOf(client);
    const sessionId = sessionIdOf(client);
    // the five stop at the token's row lock, which rotating takes: they are in flight together
    const { result: replies, waited } = await overlapped(
      stack.ctx.db,
      (trx) => trx('refresh_tokens').where({ session_id: sessionId }).whereNull('rotated_at').forNoKeyUpdate(),
      5,
      'five refreshes',
      () => Promise.all(Array.from({ length: 5 }, () => refreshWith(client, { ...cookies }))),
    );
    expect(waited).toBe(5);
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 401, 401, 401, 401]);
    for (const refused of replies.filter((reply) => reply.status === 401)) expectAuthError(refused, 401, 'not_authenticated');
    // a rotated token presented again is a replay: the session ends, its new token with it
    expect((await stack.ctx.db('sessions').where({ id: sessionId }).first()).revoked_at).not.toBeNull();

    // Live successors: unrotated tokens of the session while the session itself is not revoked.
    const live = await stack.ctx
      .db('refresh_tokens as rt')
      .join('sessions as s', 's.id', 'rt.session_id')
      .where('rt.session_id', sessionId)
      .whereNull('rt.rotated_at')
      .whereNull('s.revoked_at')
      .select('rt.id');
    expect(live.length).toBeLessThanOrEqual(1);
  });
});

// ---- POST /logout --------------------------------------------------------------------------------

describe('POST /logout', () => {
  it('answers {message} and clears the three cookies', async () => {
    const { client } = await signedInClient(stack);
    const reply = await client.post(`${AUTH}/logout`);
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body)).toEqual(['message']);
    expect(reply.body.message).toMatch(/\S/);
    for (const name of ['svc_access', 'svc_refresh', 'svc_csrf']) {
      const cookie = setCookie(reply, name);
      expect({ name, cleared: isCleared(cookie), path: cookie.attributes.path }).toEqual({ name, cleared: true, path: '/' });
    }
    expect(client.jar.size).toBe(0);
  });

  it('kills the old access and refresh cookies of the session', async () => {
    const { client } = await signedInClient(stack);
    const before = cookiesOf(client);
    expect((await client.post(`${AUTH}/logout`)).status).toBe(200);
    expectAuthError(await meWithAccessToken(client, before.access), 401, 'not_authenticated');
    expectAuthError(await refreshWith(client, before), 401, 'not_authenticated');
  });

  it('requires CSRF, and a refused logout leaves the session alive', async () => {
    const { client } = await signedInClient(stack);
    expectAuthError(await client.post(`${AUTH}/logout`, undefined, { csrf: false }), 403, 'csrf_mismatch');
    expectAuthError(await client.post(`${AUTH}/logout`, undefined, { origin: 'https://evil.example' }), 403, 'csrf_mismatch');
    expect((await client.get(`${AUTH}/me`)).status).toBe(200);
  });

  it('answers 401 without a session', async () => {
    expectAuthError(await stack.client().post(`${AUTH}/logout`), 401, 'not_authenticated');
  });

  it('leaves the other sessions of the same user working', async () => {
    const owner = await createOwner(stack.ctx.db);
    const laptop = stack.client();
    const phone = stack.client();
    await signIn(laptop, owner);
    await signIn(phone, owner);
    expect((await laptop.post(`${AUTH}/logout`)).status).toBe(200);
    expectAuthError(await laptop.get(`${AUTH}/me`), 401, 'not_authenticated');
    expect((await phone.get(`${AUTH}/me`)).status).toBe(200);
    expect((await postRefresh(phone)).status).toBe(200);
  });
});

// ---- routing and request ids ---------------------------------------------------------------------

describe('routing and request ids', () => {
  it('answers an unknown path under /api/v1/auth with 404 not_found', async () => {
    const client = stack.client();
    for (const reply of [await client.get(`${AUTH}/no-such-endpoint`), await client.post(`${AUTH}/logins`, {})]) {
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ detail: expect.any(String), code: 'not_found' });
    }
  });

  it('puts a fresh X-Request-Id on every response', async () => {
    const client = stack.client();
    const replies = [
      await login(client, await createOwner(stack.ctx.db)),
      await client.get(`${AUTH}/me`),
      await client.get(`${AUTH}/no-such-endpoint`),
      await client.post(`${AUTH}/login`, undefined, { raw: '{', contentType: 'application/json' }),
      await login(client, { email: uniqueEmail(), password: 'x'.repeat(17 * 1024) }),
    ];
    expect(replies.map((reply) => reply.status)).toEqual([200, 401, 404, 422, 413]);
    const ids = replies.map((reply) => reply.headers.get('x-request-id') ?? '');
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('echoes a well-formed incoming X-Request-Id and replaces a malformed one', async () => {
    const client = stack.client();
    const echoed = await client.get(`${AUTH}/me`, { headers: { 'x-request-id': 'edge-0123456789abcdef' } });
    expect(echoed.headers.get('x-request-id')).toBe('edge-0123456789abcdef');
    const replaced = await client.get(`${AUTH}/me`, { headers: { 'x-request-id': 'bad id; with spaces' } });
    expect(replaced.headers.get('x-request-id')).toMatch(UUID);
  });
});
