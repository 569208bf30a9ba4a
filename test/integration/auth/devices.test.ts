import { createHash, randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client, Reply, RequestOptions } from '../../helpers/client.ts';
import { expectAuthError } from '../../helpers/expect-error.ts';
import { createOwner, deviceFingerprint, exchange, newFingerprint, preAuthTokenOf, signIn, trustDevice, type TestUser } from '../../helpers/factories.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';

const AUTH = '/api/v1/auth';
const CODE_SUBJECT = /sign-in code/;
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

// ---- helpers -------------------------------------------------------------------------------------

/** The session exchange from a browser (Firefox on Linux unless told): the device's label comes from it. */
function exchangeFrom(client: Client, preAuthToken: string, teamId: number, fingerprint: string, userAgent = FIREFOX_LINUX): Promise<Reply> {
  return exchange(client, preAuthToken, teamId, fingerprint, { userAgent });
}

function challenge(preAuthToken: string, fingerprint: string, options: RequestOptions = {}): Promise<Reply> {
  const body = { pre_auth_token: preAuthToken, device_fingerprint: fingerprint, ip: '198.51.100.9', user_agent: 'what the client says' };
  return stack.client().post(`${AUTH}/device/challenge`, body, { headers: { 'user-agent': FIREFOX_LINUX }, ...options });
}

function approve(preAuthToken: string, fingerprint: string, code: string, userAgent = FIREFOX_LINUX): Promise<Reply> {
  return stack
    .client()
    .post(
      `${AUTH}/device/approve`,
      { pre_auth_token: preAuthToken, device_fingerprint: fingerprint, otp_code: code },
      { headers: { 'user-agent': userAgent } },
    );
}

/** Asks for a challenge and returns the code of the e-mail it sends (the user's next code mail). */
async function requestCode(user: TestUser, preAuthToken: string, fingerprint: string): Promise<string> {
  const earlier = codeMails(user).length;
  const reply = await challenge(preAuthToken, fingerprint);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  const match = (await stack.mailbox.waitForNth(user.email, CODE_SUBJECT, earlier + 1)).text.match(/Code: (\d{6})/);
  if (!match) throw new Error('no code in the mail');
  return match[1]!;
}

function codeMails(user: TestUser) {
  return stack.mailbox.to(user.email).filter((mail) => CODE_SUBJECT.test(mail.subject));
}

/** A six-digit code that is not `code`. */
function wrongCodeFor(code: string, offset = 1): string {
  return String((Number(code) + offset) % 1_000_000).padStart(6, '0');
}

/** Signs in from a new device through the whole flow: login, challenge, mailed code, approve, exchange. */
async function signInApproved(user: TestUser, fingerprint: string, userAgent = FIREFOX_LINUX): Promise<Client> {
  const token = await preAuthTokenOf(stack.client(), user);
  const code = await requestCode(user, token, fingerprint);
  expect((await approve(token, fingerprint, code, userAgent)).status).toBe(200);
  const client = stack.client();
  expect((await exchangeFrom(client, token, user.teamId, fingerprint, userAgent)).status).toBe(200);
  return client;
}

function latestChallenge(user: TestUser) {
  return stack.ctx.db('device_challenges').where({ user_id: user.userId }).orderBy('id', 'desc').first();
}

function devicesOf(user: TestUser, fingerprint: string) {
  return stack.ctx.db('trusted_devices').where({ user_id: user.userId, device_fingerprint: fingerprint }).orderBy('id');
}

/** Clears the account throttle, so a refusal that follows is the challenge's own. */
function unlock(user: TestUser) {
  return stack.ctx.db('users').where({ id: user.userId }).update({ failed_auth_count: 0, locked_until: null });
}

// ---- /session-exchange from a new device --------------------------------------------------------

describe('new-device approval at /session-exchange', () => {
  it('answers 403 device_approval_required for an unknown device, sets no cookie, and opens no session', async () => {
    const owner = await createOwner(stack.ctx.db);
    const token = await preAuthTokenOf(stack.client(), owner);
    const reply = await exchangeFrom(stack.client(), token, owner.teamId, newFingerprint());
    expectAuthError(reply, 403, 'device_approval_required');
    expect(reply.setCookies).toEqual([]);
    expect(await stack.ctx.db('sessions').where({ user_id: owner.userId })).toEqual([]);
  });

  it('challenge -> e-mailed code -> approve -> the same pre-auth token opens a session; the device is listed', async () => {
    const owner = await createOwner(stack.ctx.db);
    const fingerprint = newFingerprint();
    const token = await preAuthTokenOf(stack.client(), owner);
    expectAuthError(await exchangeFrom(stack.client(), token, owner.teamId, fingerprint), 403, 'device_approval_required');

    const code = await requestCode(owner, token, fingerprint);
    const mail = codeMails(owner)[0]!;
    expect(mail.text).toContain('Firefox on Linux');
    expect(mail.subject).not.toContain(code);
    const approved = await approve(token, fingerprint, code);
    expect(approved.status).toBe(200);
    expect(typeof approved.body.message).toBe('string');

    const client = stack.client();
    const exchanged = await exchangeFrom(client, token, owner.teamId, fingerprint);
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.user_id).toBe(owner.userId);

    const listed = await client.get(`${AUTH}/trusted-devices`);
    expect(listed.status).toBe(200);
    const device = listed.body.devices.find((entry: { device_label: string }) => entry.device_label === 'Firefox on Linux');
    // The IPs are those the server saw, not the body's `ip`; the label comes from the User-Agent header.
    expect(device).toMatchObject({ user_agent: FIREFOX_LINUX, first_ip: '127.0.0.1', last_ip: '127.0.0.1', revoked_at: null });
    for (const field of ['first_seen_at', 'last_seen_at', 'trusted_at']) expect(device[field]).toMatch(ISO_UTC);
    expect(Object.keys(device).sort()).toEqual([
      'device_label',
      'first_ip',
      'first_seen_at',
      'id',
      'last_ip',
      'last_seen_at',
      'revoked_at',
      'trusted_at',
      'user_agent',
    ]);
  });

  it('stores the code only as a hash salted with the challenge id, and the server-seen IP and agent', async () => {
    const owner = await createOwner(stack.ctx.db);
    const token = await preAuthTokenOf(stack.client(), owner);
    const code = await requestCode(owner, token, newFingerprint());
    const row = await latestChallenge(owner);
    expect(row.code_hash).toBe(createHash('sha256').update(`${row.id}:${code}`).digest('hex'));
    expect(row).toMatchObject({ ip: '127.0.0.1', user_agent: FIREFOX_LINUX, failed_attempts: 0, approved_at: null });
    expect(row.expires_at.getTime() - row.created_at.getTime()).toBeCloseTo(10 * 60 * 1000, -4);
  });

  it('lets a trusted device in without a code and records it as seen', async () => {
    const owner = await createOwner(stack.ctx.db);
    const fingerprint = newFingerprint();
    await signInApproved(owner, fingerprint);
    await stack.ctx
      .db('trusted_devices')
      .where({ user_id: owner.userId, device_fingerprint: fingerprint })
      .update({ last_seen_at: new Date('2000-01-01T00:00:00Z'), last_ip: '192.0.2.1' });

    expect((await exchangeFrom(stack.client(), await preAuthTokenOf(stack.client(), owner), owner.teamId, fingerprint)).status).toBe(200);
    const [device] = await devicesOf(owner, fingerprint);
    expect(device.last_ip).toBe('127.0.0.1');
    expect(device.last_seen_at.getTime()).toBeGreaterThan(Date.parse('2000-01-02T00:00:00Z'));
    expect(codeMails(owner)).toHaveLength(1);
  });

  it('needs no approval in a team that turned it off, and does not trust the device', async () => {
    const owner = await createOwner(stack.ctx.db);
    await stack.ctx
      .db('teams')
      .where({ id: owner.teamId })
      .update({ settings: JSON.stringify({ new_device_approval: false }) });
    const fingerprint = newFingerprint();
    expect((await exchangeFrom(stack.client(), await preAuthTokenOf(stack.client(), owner), owner.teamId, fingerprint)).status).toBe(200);
    expect(await devicesOf(owner, fingerprint)).toEqual([]);

    await stack.ctx
      .db('teams')
      .where({ id: owner.teamId })
      .update({ settings: JSON.stringify({ new_device_approval: true }) });
    expectAuthError(
      await exchangeFrom(stack.client(), await preAuthTokenOf(stack.client(), owner), owner.teamId, fingerprint),
      403,
      'device_approval_required',
    );
  });
});

// ---- POST /device/challenge ---------------------------------------------------------------------

describe('POST /device/challenge', () => {
  it('answers 401 for an unknown, used or expired pre-auth token, and sends nothing', async () => {
    const owner = await createOwner(stack.ctx.db);
    expectAuthError(await challenge(randomBytes(36).toString('base64url'), newFingerprint()), 401, 'not_authenticated');

    const used = await preAuthTokenOf(stack.client(), owner);
    expect((await exchangeFrom(stack.client(), used, owner.teamId, deviceFingerprint)).status).toBe(200);
    expectAuthError(await challenge(used, newFingerprint()), 401, 'not_authenticated');

    const expired = await preAuthTokenOf(stack.client(), owner);
    await stack.ctx
      .db('pre_auth_tokens')
      .where({ user_id: owner.userId })
      .whereNull('consumed_at')
      .update({ expires_at: new Date(Date.now() - 1000) });
    expectAuthError(await challenge(expired, newFingerprint()), 401, 'not_authenticated');
    expect(await stack.ctx.db('device_challenges').where({ user_id: owner.userId })).toEqual([]);
  });

  it('answers 422 for a body that does not match', async () => {
    const owner = await createOwner(stack.ctx.db);
    const token = await preAuthTokenOf(stack.client(), owner);
    for (const body of [
      {},
      { pre_auth_token: token },
      { pre_auth_token: token, device_fingerprint: 5 },
      { pre_auth_token: token, device_fingerprint: 'x'.repeat(129) },
    ]) {
      expectAuthError(await stack.client().post(`${AUTH}/device/challenge`, body), 422, 'validation_error');
    }
  });

  it('is rate limited per IP', async () => {
    const limited = await startStack({ env: { RATE_LIMIT_EMAIL: '2/1m' }, workers: false });
    try {
      const owner = await createOwner(limited.ctx.db);
      const token = (await limited.client().post(`${AUTH}/login`, { email: owner.email, password: owner.password })).body.pre_auth_token;
      const send = () => limited.client().post(`${AUTH}/device/challenge`, { pre_auth_token: token, device_fingerprint: newFingerprint() });
      const replies = [await send(), await send(), await send()];
      expect(replies.map((reply) => reply.status)).toEqual([200, 200, 429]);
      expect(replies[0]!.headers.get('x-ratelimit-limit')).toBe('2');
      expectAuthError(replies[2]!, 429, 'rate_limit_exceeded');
      expect(replies[2]!.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await limited.stop();
    }
  });
});

// ---- POST /device/approve -----------------------------------------------------------------------

describe('POST /device/approve', () => {
  it('burns the challenge after 5 wrong codes: the right one then answers 401', async () => {
    const owner = await createOwner(stack.ctx.db);
    const fingerprint = newFingerprint();
    const token = await preAuthTokenOf(stack.client(), owner);
    const code = await requestCode(owner, token, fingerprint);
    for (let attempt = 1; attempt <= 5; attempt++) {
      expectAuthError(await approve(token, fingerprint, wrongCodeFor(code, attempt)), 401, 'not_authenticated');
    }
    expect((await latestChallenge(owner)).failed_attempts).toBe(5);
    // Five wrong codes also lock the account (the throttle); unlocked, the refusal is the burned challenge's.
    expect((await stack.ctx.db('users').where({ id: owner.userId }).first()).locked_until).not.toBeNull();
    await unlock(owner);
    expectAuthError(await approve(token, fingerprint, code), 401, 'not_authenticated');
    expectAuthError(await exchangeFrom(stack.client(), token, owner.teamId, fingerprint), 403, 'device_approval_required');
    expect(await devicesOf(owner, fingerprint)).toEqual([]);
  });

  it('lets a burst of 50 parallel wrong codes compare at most 5 times', async () => {
    const owner = await createOwner(stack.ctx.db);
    const fingerprint = newFingerprint();
    const token = await preAuthTokenOf(stack.client(), owner);
    const code = await requestCode(owner, token, fingerprint);
    const replies = await Promise.all(Array.from({ length: 50 }, (_, index) => approve(token, fingerprint, wrongCodeFor(code, index + 1))));
    for (const reply of replies) expectAuthError(reply, 401, 'not_authenticated');
    expect((await latestChallenge(owner)).failed_attempts).toBe(5);
    expect((await stack.ctx.db('users').where({ id: owner.userId }).first()).failed_auth_count).toBe(5);

    await unlock(owner);
    expectAuthError(await approve(token, fingerprint, code), 401, 'not_authenticated');
    expect((await latestChallenge(owner)).failed_attempts).toBe(5);
    expect(await devicesOf(owner, fingerprint)).toEqual([]);
  });

  it('accepts the right code after a few wrong ones, which count toward the account throttle', async () => {
    const owner = await createOwner(stack.ctx.db);
    const fingerprint = newFingerprint();
    const token = await preAuthTokenOf(stack.client(), owner);
    const code = await requestCode(owner, token, fingerprint);
    for (let attempt = 1; attempt <= 2; attempt++) expectAuthError(await approve(token, fingerprint, wrongCodeFor(code, attempt)), 401, 'not_authenticated');
    expect((await stack.ctx.db('users').where({ id: owner.userId }).first()).failed_auth_count).toBe(2);
    expect((await approve(token, fingerprint, code)).status).toBe(200);
    expect((await latestChallenge(owner)).failed_attempts).toBe(2);
    expect((await exchangeFrom(stack.client(), token, owner.teamId, fingerprint)).status).toBe(200);
    expect((await stack.ctx.db('users').where({ id: owner.userId }).first()).failed_auth_count).toBe(0);
  });

  it('refuses the right code like a wrong one while the account is locked', async () => {
    const owner = await createOwner(stack.ctx.db);
    const fingerprint = newFingerprint();
    const token = await preAuthTokenOf(stack.client(), owner);
    const code = await requestCode(owner, token, fingerprint);
    const wrong = await approve(token, fingerprint, wrongCodeFor(code));
    await stack.ctx
      .db('users')
      .where({ id: owner.userId })
      .update({ locked_until: new Date(Date.now() + 60_000) });
    const locked = await approve(token, fingerprint, code);
    expect({ status: locked.status, body: locked.body }).toEqual({ status: wrong.status, body: wrong.body });
    await unlock(owner);
    expect((await approve(token, fingerprint, code)).status).toBe(200);
  });

  it('refuses an expired challenge', async () => {
    const owner = await createOwner(stack.ctx.db);
    const fingerprint = newFingerprint();
    const token = await preAuthTokenOf(stack.client(), owner);
    const code = await requestCode(owner, token, fingerprint);
    await stack.ctx
      .db('device_challenges')
      .where({ user_id: owner.userId })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expectAuthError(await approve(token, fingerprint, code), 401, 'not_authenticated');
    expectAuthError(await exchangeFrom(stack.client(), token, owner.teamId, fingerprint), 403, 'device_approval_required');
  });

  it('refuses the code of a replaced challenge; the new one works', async () => {
    const owner = await createOwner(stack.ctx.db);
    const fingerprint = newFingerprint();
    const token = await preAuthTokenOf(stack.client(), owner);
    const first = await requestCode(owner, token, fingerprint);
    const second = await requestCode(owner, token, fingerprint);
    expect(await stack.ctx.db('device_challenges').where({ user_id: owner.userId }).whereNotNull('replaced_at')).toHaveLength(1);
    expectAuthError(await approve(token, fingerprint, first), 401, 'not_authenticated');
    expect((await approve(token, fingerprint, second)).status).toBe(200);
    expect((await exchangeFrom(stack.client(), token, owner.teamId, fingerprint)).status).toBe(200);
  });

  it('binds the code to its sign-in and its device', async () => {
    const owner = await createOwner(stack.ctx.db);
    const fingerprint = newFingerprint();
    const [mine, other] = [await preAuthTokenOf(stack.client(), owner), await preAuthTokenOf(stack.client(), owner)];
    const code = await requestCode(owner, mine, fingerprint);
    await requestCode(owner, other, fingerprint); // another login's challenge does not replace this one
    expectAuthError(await approve(other, fingerprint, code), 401, 'not_authenticated');
    expectAuthError(await approve(mine, newFingerprint(), code), 401, 'not_authenticated');
    expect((await approve(mine, fingerprint, code)).status).toBe(200);

    const stranger = await createOwner(stack.ctx.db);
    expectAuthError(await approve(await preAuthTokenOf(stack.client(), stranger), fingerprint, code), 401, 'not_authenticated');
  });

  it('answers 401 for an invalid pre-auth token and 422 for a malformed code', async () => {
    const owner = await createOwner(stack.ctx.db);
    const token = await preAuthTokenOf(stack.client(), owner);
    expectAuthError(await approve(randomBytes(36).toString('base64url'), newFingerprint(), '123456'), 401, 'not_authenticated');
    expectAuthError(await approve(token, newFingerprint(), '123456'), 401, 'not_authenticated'); // no challenge at all
    for (const code of ['12345', '1234567', 'abcdef', ' 123456']) expectAuthError(await approve(token, newFingerprint(), code), 422, 'validation_error');
  });
});

// ---- GET /login-activity ------------------------------------------------------------------------

describe('GET /login-activity', () => {
  it("lists the caller's own logins and refreshes, newest first, with pagination", async () => {
    const owner = await createOwner(stack.ctx.db);
    await signIn(stack.client(), await createOwner(stack.ctx.db)); // someone else's activity
    const client = stack.client();
    await signIn(client, owner);
    expect((await client.post(`${AUTH}/refresh`)).status).toBe(200);
    await signIn(client, owner);

    const reply = await client.get(`${AUTH}/login-activity`);
    expect(reply.status).toBe(200);
    expect(reply.body.activity.map((entry: { event_type: string }) => entry.event_type)).toEqual(['login', 'refresh', 'login']);
    expect(reply.body.pagination).toEqual({ page: 1, page_size: 20, total: 3, total_pages: 1 });
    const [login, refresh] = reply.body.activity;
    expect(login).toEqual({
      id: expect.any(Number),
      event_type: 'login',
      ip: '127.0.0.1',
      user_agent: expect.any(String),
      device_fingerprint: deviceFingerprint,
      geo: { city: 'Lisbon', country: 'PT' },
      created_at: expect.stringMatching(ISO_UTC),
    });
    expect(refresh).toMatchObject({ event_type: 'refresh', ip: '127.0.0.1', geo: { city: null, country: null } });
    const ids = reply.body.activity.map((entry: { id: number }) => entry.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);

    const first = await client.get(`${AUTH}/login-activity?page=1&page_size=2`);
    const second = await client.get(`${AUTH}/login-activity?page=2&page_size=2`);
    expect(first.body.pagination).toEqual({ page: 1, page_size: 2, total: 3, total_pages: 2 });
    expect(second.body.pagination).toEqual({ page: 2, page_size: 2, total: 3, total_pages: 2 });
    expect([...first.body.activity, ...second.body.activity].map((entry: { id: number }) => entry.id)).toEqual(ids);
    expect((await client.get(`${AUTH}/login-activity?page=3&page_size=2`)).body.activity).toEqual([]);
  });

  it("prefers the country the server located over the client's, and drops a contradicting city", async () => {
    const owner = await createOwner(stack.ctx.db);
    const client = stack.client();
    await signIn(client, owner);
    const rows = stack.ctx.db('login_activity').where({ user_id: owner.userId });
    await rows.clone().update({ country: 'ES' });
    expect((await client.get(`${AUTH}/login-activity`)).body.activity[0].geo).toEqual({ city: null, country: 'ES' });
    await rows.clone().update({ country: 'PT' });
    expect((await client.get(`${AUTH}/login-activity`)).body.activity[0].geo).toEqual({ city: 'Lisbon', country: 'PT' });
  });

  it('answers 422 for bad page values', async () => {
    const owner = await createOwner(stack.ctx.db);
    const client = stack.client();
    await signIn(client, owner);
    for (const query of ['page=0', 'page=-1', 'page=1.5', 'page=abc', 'page_size=0', 'page_size=101', 'page_size=', 'page=1&page=2']) {
      expectAuthError(await client.get(`${AUTH}/login-activity?${query}`), 422, 'validation_error');
    }
    expect((await client.get(`${AUTH}/login-activity?page_size=100`)).status).toBe(200);
  });
});

// ---- trusted devices ----------------------------------------------------------------------------

describe('trusted devices', () => {
  it('answers 401 without a session', async () => {
    const client = stack.client();
    expectAuthError(await client.get(`${AUTH}/login-activity`), 401, 'not_authenticated');
    expectAuthError(await client.get(`${AUTH}/trusted-devices`), 401, 'not_authenticated');
    expectAuthError(await client.post(`${AUTH}/trusted-devices/revoke`, { device_id: 1 }), 401, 'not_authenticated');
  });

  it("lists only the caller's devices", async () => {
    const owner = await createOwner(stack.ctx.db);
    const stranger = await createOwner(stack.ctx.db);
    await trustDevice(stack.ctx.db, stranger.userId, newFingerprint());
    const client = stack.client();
    await signIn(client, owner);
    await trustDevice(stack.ctx.db, owner.userId, newFingerprint());
    const mine = await stack.ctx.db('trusted_devices').where({ user_id: owner.userId }).orderBy('id', 'desc').pluck('id');
    expect(mine).toHaveLength(2);
    expect((await client.get(`${AUTH}/trusted-devices`)).body.devices.map((device: { id: number }) => device.id)).toEqual(mine);
  });

  it("answers 404 for another user's device or an unknown id, and revokes nothing", async () => {
    const owner = await createOwner(stack.ctx.db);
    const stranger = await createOwner(stack.ctx.db);
    const client = stack.client();
    await signIn(client, owner);
    const [foreign] = await stack.ctx.db('trusted_devices').where({ user_id: stranger.userId }).pluck('id');
    expectAuthError(await client.post(`${AUTH}/trusted-devices/revoke`, { device_id: foreign }), 404, 'not_found');
    expectAuthError(await client.post(`${AUTH}/trusted-devices/revoke`, { device_id: 2_000_000_000 }), 404, 'not_found');
    expect(await stack.ctx.db('trusted_devices').whereIn('user_id', [owner.userId, stranger.userId]).whereNotNull('revoked_at')).toEqual([]);
  });

  it('refuses a revoke without CSRF, and a malformed one', async () => {
    const owner = await createOwner(stack.ctx.db);
    const client = stack.client();
    await signIn(client, owner);
    const [id] = await stack.ctx.db('trusted_devices').where({ user_id: owner.userId }).pluck('id');
    expectAuthError(await client.post(`${AUTH}/trusted-devices/revoke`, { device_id: id }, { csrf: false }), 403, 'csrf_mismatch');
    expectAuthError(await client.post(`${AUTH}/trusted-devices/revoke`, { device_id: id }, { origin: 'https://evil.example' }), 403, 'csrf_mismatch');
    expectAuthError(await client.post(`${AUTH}/trusted-devices/revoke`, { device_id: String(id) }), 422, 'validation_error');
    expect((await stack.ctx.db('trusted_devices').where({ id }).first()).revoked_at).toBeNull();
    expect((await client.get(`${AUTH}/me`)).status).toBe(200);
  });

  it('revoking a device ends its sessions, keeps the others, and its next sign-in needs a code again', async () => {
    const owner = await createOwner(stack.ctx.db);
    // Two devices signed in at once: the concurrent-login rule is not what this test is about.
    await stack.ctx
      .db('teams')
      .where({ id: owner.teamId })
      .update({ settings: JSON.stringify({ concurrent_sessions: 'allow' }) });
    const laptop = newFingerprint();
    const phone = newFingerprint();
    const onLaptop = await signInApproved(owner, laptop, FIREFOX_LINUX);
    const onPhone = await signInApproved(owner, phone, CHROME_MAC);
    const [laptopDevice] = await devicesOf(owner, laptop);

    const revoked = await onPhone.post(`${AUTH}/trusted-devices/revoke`, { device_id: laptopDevice.id });
    expect(revoked.status).toBe(200);
    expect(typeof revoked.body.message).toBe('string');
    expectAuthError(await onLaptop.get(`${AUTH}/me`), 401, 'not_authenticated');
    expect((await onPhone.get(`${AUTH}/me`)).status).toBe(200);
    const listed = (await onPhone.get(`${AUTH}/trusted-devices`)).body.devices;
    expect(listed.find((device: { id: number }) => device.id === laptopDevice.id).revoked_at).toMatch(ISO_UTC);
    expect(listed.find((device: { device_label: string }) => device.device_label === 'Chrome on macOS').revoked_at).toBeNull();

    const token = await preAuthTokenOf(stack.client(), owner);
    expectAuthError(await exchangeFrom(stack.client(), token, owner.teamId, laptop), 403, 'device_approval_required');
    const code = await requestCode(owner, token, laptop);
    expect((await approve(token, laptop, code)).status).toBe(200);
    const again = stack.client();
    expect((await exchangeFrom(again, token, owner.teamId, laptop)).status).toBe(200);
    const rows = await devicesOf(owner, laptop);
    expect(rows.map((row) => row.revoked_at === null)).toEqual([false, true]);

    // Revoking the old row again changes nothing, and leaves the re-approved device's session alone.
    expect((await onPhone.post(`${AUTH}/trusted-devices/revoke`, { device_id: laptopDevice.id })).status).toBe(200);
    expect((await devicesOf(owner, laptop)).map((row) => row.revoked_at === null)).toEqual([false, true]);
    expect((await again.get(`${AUTH}/me`)).status).toBe(200);
  });

  it('revoking the device of the calling session ends that session', async () => {
    const owner = await createOwner(stack.ctx.db);
    const client = stack.client();
    await signIn(client, owner);
    const sessionId = decodeJwt(client.jar.get('svc_access')!).sid;
    const [id] = await stack.ctx.db('trusted_devices').where({ user_id: owner.userId }).pluck('id');
    expect((await client.post(`${AUTH}/trusted-devices/revoke`, { device_id: id })).status).toBe(200);
    expectAuthError(await client.get(`${AUTH}/me`), 401, 'not_authenticated');
    expect((await stack.ctx.db('sessions').where({ id: sessionId }).first()).revoked_reason).toBe('device_revoked');
  });
});
