import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvite } from '../../../shared/domains/teams/invites.ts';
import type { Reply } from '../../helpers/client.ts';
import { expectAuthError } from '../../helpers/expect-error.ts';
import { DEFAULT_PASSWORD, createOwner, login, signIn, unique, uniqueEmail, type TestUser } from '../../helpers/factories.ts';
import { mailSent } from '../../helpers/dunning.ts';
import { linkIn, tokenIn, type ReceivedMail } from '../../helpers/mailbox.ts';
import { sha256Hex } from '../../helpers/sha256.ts';
import { PANEL_URL, startStack, type Stack } from '../../helpers/stack.ts';

const AUTH = '/api/v1/auth';
const VERIFY_SUBJECT = /^Verify your e-mail address/;
const RESET_SUBJECT = /^Reset your Berth password/;
const INVITE_SUBJECT = /^You are invited to join/;
/** Long enough for the token schema (16..512), so a refusal is the token check, not validation. */
const GARBAGE_TOKEN = randomBytes(32).toString('base64url');

let stack: Stack;
let developerRoleId: number;

beforeAll(async () => {
  stack = await startStack();
  developerRoleId = (await stack.ctx.db('roles').whereNull('team_id').where({ name: 'developer' }).first('id')).id;
});
afterAll(async () => {
  await stack?.stop();
});

// ---- helpers ---------------------------------------------------------------------------------

type OwnerBody = { email: string; password: string; name: string; team_name: string; team_slug: string };

function ownerBody(overrides: Partial<OwnerBody> = {}): OwnerBody {
  return { email: uniqueEmail(), password: DEFAULT_PASSWORD, name: unique('Name'), team_name: unique('Team'), team_slug: unique('team'), ...overrides };
}

function post(path: string, body: unknown, options: { on?: Stack; headers?: Record<string, string> } = {}): Promise<Reply> {
  return (options.on ?? stack).client().post(`${AUTH}${path}`, body, { headers: options.headers });
}

/** Registers through Door A and insists on the 201. */
async function registerOwner(overrides: Partial<OwnerBody> = {}): Promise<OwnerBody & { userId: number; teamId: number }> {
  const body = ownerBody(overrides);
  const reply = await post('/register-owner', body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return { ...body, email: body.email.toLowerCase(), userId: reply.body.user_id, teamId: reply.body.team_id };
}

/** Once the workers have run every mail job enqueued so far (the requests' own included), none went to these addresses. */
async function expectNoMailTo(...addresses: string[]): Promise<void> {
  await mailSent(stack);
  for (const address of addresses) expect(stack.mailbox.to(address)).toEqual([]);
}

async function verificationToken(email: string, n = 1): Promise<string> {
  return tokenIn(await stack.mailbox.waitForNth(email, VERIFY_SUBJECT, n));
}

async function resetToken(email: string, n = 1): Promise<string> {
  expect((await post('/password-reset/request', { email })).status).toBe(200);
  return tokenIn(await stack.mailbox.waitForNth(email, RESET_SUBJECT, n));
}

/** Invites `email` as developer into `owner`'s team (a fresh owner by default) and returns the mailed token. */
async function mailedInvite(email: string, owner?: TestUser): Promise<{ owner: TestUser; inviteId: number; token: string; mail: ReceivedMail }> {
  const inviter = owner ?? (await createOwner(stack.ctx.db));
  const earlier = stack.mailbox.to(email).filter((mail) => INVITE_SUBJECT.test(mail.subject)).length;
  const created = await createInvite(stack.ctx, { teamId: inviter.teamId, email, roleId: developerRoleId, invitedByUserId: inviter.userId });
  const mail = await stack.mailbox.waitForNth(email, INVITE_SUBJECT, earlier + 1);
  return { owner: inviter, inviteId: created.id, token: tokenIn(mail), mail };
}

function inviteBody(token: string, email: string, overrides: Record<string, unknown> = {}) {
  return { invite_token: token, email, password: DEFAULT_PASSWORD, name: unique('Name'), ...overrides };
}

function userByEmail(email: string) {
  return stack.ctx.db('users').where({ email }).first();
}

function membership(userId: number, teamId: number) {
  return stack.ctx
    .db('memberships as m')
    .join('roles as r', 'r.id', 'm.role_id')
    .where({ 'm.user_id': userId, 'm.team_id': teamId })
    .first('m.status', 'm.role_id', 'r.name as role_name', 'r.permissions');
}

function expireUserTokens(userId: number, purpose: 'email_verification' | 'password_reset') {
  return stack.ctx
    .db('user_tokens')
    .where({ user_id: userId, purpose })
    .update({ expires_at: stack.ctx.db.raw("now() - interval '1 minute'") });
}

/** Seconds between issue and expiry of the newest token of a purpose. */
async function tokenLifetimeSeconds(userId: number, purpose: string): Promise<number> {
  const row = await stack.ctx.db('user_tokens').where({ user_id: userId, purpose }).orderBy('id', 'desc').first('created_at', 'expires_at');
  return (row.expires_at.getTime() - row.created_at.getTime()) / 1000;
}

/**
 * argon2id, v=19, m=19456, t=2, p=1. Compared as a set: node-argon2 writes the parameters in the
 * order m,p,t (`$argon2id$v=19$m=19456,p=1,t=2$...`), not the reference order m,t,p.
 */
function expectOwaspArgon2id(hash: string): void {
  const [empty, algorithm, version, parameters = ''] = hash.split('$');
  expect([empty, algorithm, version]).toEqual(['', 'argon2id', 'v=19']);
  expect(Object.fromEntries(parameters.split(',').map((pair) => pair.split('=')))).toEqual({ m: '19456', t: '2', p: '1' });
}

/** fetch() always sends the real Host, so a forged Host header needs node:http. */
function postWithForgedHost(path: string, body: unknown, host: string): Promise<{ status: number; body: any }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${stack.api.url}${AUTH}${path}`,
      { method: 'POST', headers: { host, 'x-forwarded-host': host, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

// ---- Door A ----------------------------------------------------------------------------------

describe('POST /register-owner (Door A)', () => {
  it('creates the user (e-mail lower-cased), the team and an active owner membership with all permissions', async () => {
    const body = ownerBody({ email: uniqueEmail().toUpperCase() });
    const reply = await post('/register-owner', body);

    expect(reply.status).toBe(201);
    expect(Number.isInteger(reply.body.user_id)).toBe(true);
    expect(Number.isInteger(reply.body.team_id)).toBe(true);
    expect(reply.body.message).toMatch(/verify/i);
    const user = await stack.ctx.db('users').where({ id: reply.body.user_id }).first();
    expect(user.email).toBe(body.email.toLowerCase());
    expect(user.name).toBe(body.name);
    expect(user.email_verified_at).toBeNull();
    expectOwaspArgon2id(user.password_hash);
    const team = await stack.ctx.db('teams').where({ id: reply.body.team_id }).first();
    expect(team.slug).toBe(body.team_slug);
    expect(team.name).toBe(body.team_name);
    const member = await membership(reply.body.user_id, reply.body.team_id);
    expect(member.status).toBe('ACTIVE');
    expect(member.role_name).toBe('owner');
    expect(member.permissions).toEqual(['*']);
  });

  it('mails a verification link under PUBLIC_URL, in the text and the HTML part', async () => {
    const owner = await registerOwner();
    const mail = await stack.mailbox.waitFor(owner.email, VERIFY_SUBJECT);
    const link = linkIn(mail);

    expect(link.origin).toBe(PANEL_URL);
    expect(link.pathname).toBe('/verify-email');
    expect(link.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail.text).toContain(link.toString());
    expect(mail.html).toContain(`href="${link.toString()}"`);
  });

  it('refuses sign-in until the e-mail is verified, then lets the user in', async () => {
    const owner = await registerOwner();

    const early = await login(stack.client(), owner);
    expect(early.status).toBe(422);
    expect(early.body.code).toBe('validation_error');
    expect(early.body.email).toBe(owner.email);
    expect(typeof early.body.detail).toBe('string');

    const confirmed = await post('/email/verification/confirm', { token: await verificationToken(owner.email) });
    expect(confirmed.status).toBe(200);
    expect(typeof confirmed.body.message).toBe('string');

    const signedIn = await login(stack.client(), owner);
    expect(signedIn.status).toBe(200);
    expect(typeof signedIn.body.pre_auth_token).toBe('string');
    expect(signedIn.body.teams).toEqual([{ team_id: owner.teamId, team_name: owner.team_name, role_name: 'owner', status: 'ACTIVE' }]);
  });

  it.each([
    ['7 characters', 'a'.repeat(7)],
    ['129 characters', 'a'.repeat(129)],
  ])('refuses a password of %s (422) and stores nothing', async (_label, password) => {
    const body = ownerBody({ password });
    expectAuthError(await post('/register-owner', body), 422, 'validation_error');
    expect(await userByEmail(body.email)).toBeUndefined();
  });

  it('accepts a password of exactly 128 characters', async () => {
    const owner = await registerOwner({ password: 'p'.repeat(128) });
    await post('/email/verification/confirm', { token: await verificationToken(owner.email) });
    expect((await login(stack.client(), { email: owner.email, password: 'p'.repeat(128) })).status).toBe(200);
  });

  it('normalises the password with NFKC: registered in fullwidth letters, signs in with ASCII', async () => {
    const owner = await registerOwner({ password: 'ｐａｓｓｗｏｒｄ１２' });
    await post('/email/verification/confirm', { token: await verificationToken(owner.email) });
    expect((await login(stack.client(), { email: owner.email, password: 'password12' })).status).toBe(200);
  });

  it('refuses an e-mail that is already registered, also in another case', async () => {
    const first = await registerOwner();
    for (const email of [first.email, first.email.toUpperCase()]) {
      const reply = await post('/register-owner', ownerBody({ email }));
      expectAuthError(reply, 422, 'validation_error');
      expect(reply.body.detail).toMatch(/email/);
    }
  });

  it('refuses a slug that is taken, and leaves no user behind', async () => {
    const first = await registerOwner();
    const second = ownerBody({ team_slug: first.team_slug });
    const reply = await post('/register-owner', second);
    expectAuthError(reply, 422, 'validation_error');
    expect(reply.body.detail).toMatch(/team_slug/);
    expect(await userByEmail(second.email)).toBeUndefined();
  });

  it.each(['A B', 'ab', '-abc', 'abc-', 'a--b', 'admin'])('refuses the slug %j', async (slug) => {
    const reply = await post('/register-owner', ownerBody({ team_slug: slug }));
    expectAuthError(reply, 422, 'validation_error');
    expect(reply.body.detail).toMatch(/team_slug/);
  });

  it.each<[string, unknown]>([
    ['an empty object', {}],
    ['a JSON array', []],
    ['a numeric e-mail', { ...ownerBody(), email: 12345 }],
    ['a numeric password', { ...ownerBody(), password: 12345678 }],
    ['a null name', { ...ownerBody(), name: null }],
    ['an array team_name', { ...ownerBody(), team_name: ['x'] }],
    ['an object slug', { ...ownerBody(), team_slug: {} }],
    ['a blank name', { ...ownerBody(), name: '   ' }],
    ['no team_slug', { ...ownerBody(), team_slug: undefined }],
    ['SQL in the e-mail', { ...ownerBody(), email: "' OR '1'='1' --" }],
    ['SQL in the slug', { ...ownerBody(), team_slug: "x'; DROP TABLE users; --" }],
  ])('answers 422 validation_error, not 500, to %s', async (_label, body) => {
    expectAuthError(await post('/register-owner', body), 422, 'validation_error');
  });

  it('answers 422 validation_error to a body that is not JSON', async () => {
    const reply = await stack.client().request('POST', `${AUTH}/register-owner`, { raw: '{"email": ', contentType: 'application/json' });
    expectAuthError(reply, 422, 'validation_error');
  });

  it('lets exactly one of two parallel registrations of the same e-mail through; the other gets 422', async () => {
    const email = uniqueEmail();
    const replies = await Promise.all([post('/register-owner', ownerBody({ email })), post('/register-owner', ownerBody({ email }))]);

    expect(replies.map((reply) => reply.status).sort()).toEqual([201, 422]);
    expect(replies.find((reply) => reply.status === 422)!.body.code).toBe('validation_error');
    expect(await stack.ctx.db('users').where({ email }).count({ n: '*' })).toEqual([{ n: 1 }]);
  });

  describe('with RATE_LIMIT_REGISTER=2/1m', () => {
    let limited: Stack;
    beforeAll(async () => {
      limited = await startStack({ env: { RATE_LIMIT_REGISTER: '2/1m' }, workers: false });
    });
    afterAll(async () => {
      await limited?.stop();
    });

    it('answers the third attempt 429 rate_limit_exceeded with Retry-After and X-RateLimit-*; both doors share the limit', async () => {
      for (let attempt = 1; attempt <= 2; attempt++) {
        const allowed = await post('/register-owner', ownerBody(), { on: limited });
        expect(allowed.status).toBe(201);
        expect(allowed.headers.get('x-ratelimit-limit')).toBe('2');
        expect(allowed.headers.get('x-ratelimit-remaining')).toBe(String(2 - attempt));
      }

      const refused = await post('/register-owner', ownerBody(), { on: limited });
      expectAuthError(refused, 429, 'rate_limit_exceeded');
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.headers.get('x-ratelimit-limit')).toBe('2');
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      const resetAt = Number(refused.headers.get('x-ratelimit-reset'));
      const now = Date.now() / 1000;
      expect(resetAt).toBeGreaterThan(now);
      expect(resetAt).toBeLessThanOrEqual(Math.ceil(now) + 60);

      expectAuthError(await post('/register-from-invite', inviteBody(GARBAGE_TOKEN, uniqueEmail()), { on: limited }), 429, 'rate_limit_exceeded');
    });
  });
});

// ---- Door B ----------------------------------------------------------------------------------

describe('POST /register-from-invite (Door B)', () => {
  it('mails the invite with an accept-invite link under PUBLIC_URL', async () => {
    const { mail, owner } = await mailedInvite(uniqueEmail());
    const link = linkIn(mail);
    expect(link.origin).toBe(PANEL_URL);
    expect(link.pathname).toBe('/accept-invite');
    expect(mail.subject).toBe(`You are invited to join ${owner.teamName} on Berth`);
    expect(mail.html).toContain(`href="${link.toString()}"`);
  });

  it('creates a verified user who is an active developer of the team and can sign in at once', async () => {
    const email = uniqueEmail();
    const { owner, inviteId, token } = await mailedInvite(email);
    const reply = await post('/register-from-invite', inviteBody(token, email));

    expect(reply.status).toBe(201);
    expect(Number.isInteger(reply.body.user_id)).toBe(true);
    expect(reply.body.team_id).toBe(owner.teamId);
    expect(reply.body.role_id).toBe(developerRoleId);
    expect(reply.body.role_name).toBe('developer');
    expect(typeof reply.body.message).toBe('string');
    const user = await userByEmail(email);
    expect(user.id).toBe(reply.body.user_id);
    expect(user.email_verified_at).toBeInstanceOf(Date);
    expectOwaspArgon2id(user.password_hash);
    const member = await membership(user.id, owner.teamId);
    expect(member.status).toBe('ACTIVE');
    expect(member.role_id).toBe(developerRoleId);
    const accepted = await stack.ctx.db('invites').where({ id: inviteId }).first();
    expect(accepted.accepted_user_id).toBe(user.id);

    const signedIn = await login(stack.client(), { email, password: DEFAULT_PASSWORD });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.teams).toEqual([{ team_id: owner.teamId, team_name: owner.teamName, role_name: 'developer', status: 'ACTIVE' }]);
  });

  it('accepts the token once; the second use is 401 not_authenticated', async () => {
    const email = uniqueEmail();
    const { token } = await mailedInvite(email);
    expect((await post('/register-from-invite', inviteBody(token, email))).status).toBe(201);
    expectAuthError(await post('/register-from-invite', inviteBody(token, email)), 401, 'not_authenticated');
  });

  it('refuses an e-mail other than the invited one (422) without using up the token', async () => {
    const email = uniqueEmail();
    const { token } = await mailedInvite(email);
    const other = uniqueEmail();
    const reply = await post('/register-from-invite', inviteBody(token, other));
    expectAuthError(reply, 422, 'validation_error');
    expect(reply.body.detail).toMatch(/email/);
    expect(await userByEmail(other)).toBeUndefined();
    expect((await post('/register-from-invite', inviteBody(token, email))).status).toBe(201);
  });

  it('a fresh invite to the same address revokes the older one', async () => {
    const email = uniqueEmail();
    const first = await mailedInvite(email);
    const second = await mailedInvite(email, first.owner);
    expect(second.token).not.toBe(first.token);

    expectAuthError(await post('/register-from-invite', inviteBody(first.token, email)), 401, 'not_authenticated');
    expect((await post('/register-from-invite', inviteBody(second.token, email))).status).toBe(201);
  });

  it('refuses an expired invite with 401', async () => {
    const email = uniqueEmail();
    const { inviteId, token } = await mailedInvite(email);
    await stack.ctx
      .db('invites')
      .where({ id: inviteId })
      .update({ expires_at: stack.ctx.db.raw("now() - interval '1 minute'") });
    expectAuthError(await post('/register-from-invite', inviteBody(token, email)), 401, 'not_authenticated');
    expect(await userByEmail(email)).toBeUndefined();
  });

  it('lets an existing user join with their own password (201, same user_id, password unchanged)', async () => {
    const existing = await createOwner(stack.ctx.db);
    const before = await userByEmail(existing.email);
    const { owner, token } = await mailedInvite(existing.email);
    const reply = await post('/register-from-invite', inviteBody(token, existing.email, { password: existing.password }));

    expect(reply.status).toBe(201);
    expect(reply.body.user_id).toBe(existing.userId);
    expect(reply.body.team_id).toBe(owner.teamId);
    expect(reply.body.role_name).toBe('developer');
    expect((await userByEmail(existing.email)).password_hash).toBe(before.password_hash);
    const signedIn = await login(stack.client(), existing);
    expect(signedIn.body.teams.map((team: { team_id: number }) => team.team_id).sort()).toEqual([existing.teamId, owner.teamId].sort());
  });

  it('refuses an existing user who gives a wrong password (422) and does not add them', async () => {
    const existing = await createOwner(stack.ctx.db);
    const { owner, token } = await mailedInvite(existing.email);
    const reply = await post('/register-from-invite', inviteBody(token, existing.email, { password: 'not the right password' }));
    expectAuthError(reply, 422, 'validation_error');
    expect(reply.body.detail).toMatch(/password/);
    expect(await membership(existing.userId, owner.teamId)).toBeUndefined();
  });

  it('refuses a token that was never issued with 401', async () => {
    expectAuthError(await post('/register-from-invite', inviteBody(GARBAGE_TOKEN, uniqueEmail())), 401, 'not_authenticated');
  });
});

// ---- e-mail verification ---------------------------------------------------------------------

describe('e-mail verification', () => {
  it('sends a new link to an unverified user on request', async () => {
    const owner = await registerOwner();
    const first = await verificationToken(owner.email);
    const reply = await post('/email/verification/request', { email: owner.email.toUpperCase() });
    expect(reply.status).toBe(200);
    expect(typeof reply.body.message).toBe('string');
    const second = await verificationToken(owner.email, 2);
    expect(second).not.toBe(first);
    expect((await post('/email/verification/confirm', { token: second })).status).toBe(200);
  });

  it('answers an unknown and an already-verified address exactly like an unverified one, and mails neither', async () => {
    const unverified = await createOwner(stack.ctx.db, { verified: false });
    const verified = await createOwner(stack.ctx.db);
    const unknown = uniqueEmail();

    const replies = await Promise.all([unverified.email, verified.email, unknown].map((email) => post('/email/verification/request', { email })));
    for (const reply of replies) {
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual(replies[0]!.body);
    }
    await stack.mailbox.waitFor(unverified.email, VERIFY_SUBJECT);
    await expectNoMailTo(verified.email, unknown);
  });

  it('accepts a confirmation token once; the second use is 401', async () => {
    const owner = await registerOwner();
    const token = await verificationToken(owner.email);
    expect((await post('/email/verification/confirm', { token })).status).toBe(200);
    expect((await userByEmail(owner.email)).email_verified_at).toBeInstanceOf(Date);
    expectAuthError(await post('/email/verification/confirm', { token }), 401, 'not_authenticated');
  });

  it('issues tokens for 24 hours and refuses an expired one with 401', async () => {
    const owner = await registerOwner();
    const token = await verificationToken(owner.email);
    expect(await tokenLifetimeSeconds(owner.userId, 'email_verification')).toBeCloseTo(24 * 3600, -1);
    await expireUserTokens(owner.userId, 'email_verification');
    expectAuthError(await post('/email/verification/confirm', { token }), 401, 'not_authenticated');
    expect((await userByEmail(owner.email)).email_verified_at).toBeNull();
  });

  it('refuses a token that was never issued with 401', async () => {
    expectAuthError(await post('/email/verification/confirm', { token: GARBAGE_TOKEN }), 401, 'not_authenticated');
  });

  it('stores only the SHA-256 of the token', async () => {
    const owner = await registerOwner();
    const token = await verificationToken(owner.email);
    const hashes = (await stack.ctx.db('user_tokens').where({ user_id: owner.userId }).select('token_hash')).map((row) => row.token_hash);
    expect(hashes).toEqual([sha256Hex(token)]);
    expect(hashes).not.toContain(token);
  });
});

// ---- password reset --------------------------------------------------------------------------

describe('password reset', () => {
  it('mails a link under PUBLIC_URL even when the request forges Host and X-Forwarded-Host', async () => {
    const user = await createOwner(stack.ctx.db);
    const reply = await postWithForgedHost('/password-reset/request', { email: user.email }, 'evil.example');
    expect(reply.status).toBe(200);

    const mail = await stack.mailbox.waitFor(user.email, RESET_SUBJECT);
    const link = linkIn(mail);
    expect(link.toString().startsWith(`${PANEL_URL}/reset-password?token=`)).toBe(true);
    expect(mail.text).not.toContain('evil.example');
    expect(mail.html).not.toContain('evil.example');
    expect(mail.html).toContain(`href="${link.toString()}"`);
  });

  it('answers an unknown address exactly like a known one, and mails nothing', async () => {
    const known = await createOwner(stack.ctx.db);
    const unknown = uniqueEmail();
    const [knownReply, unknownReply] = await Promise.all([
      post('/password-reset/request', { email: known.email }),
      post('/password-reset/request', { email: unknown }),
    ]);
    expect(knownReply.status).toBe(200);
    expect(typeof knownReply.body.message).toBe('string');
    expect(unknownReply.status).toBe(knownReply.status);
    expect(unknownReply.body).toEqual(knownReply.body);
    await stack.mailbox.waitFor(known.email, RESET_SUBJECT);
    await expectNoMailTo(unknown);
  });

  it('sets the new password: the old one fails with 401, the new one signs in', async () => {
    const user = await createOwner(stack.ctx.db);
    const reply = await post('/password-reset/confirm', { token: await resetToken(user.email), new_password: 'a brand new password' });
    expect(reply.status).toBe(200);
    expect(typeof reply.body.message).toBe('string');

    expectAuthError(await login(stack.client(), user), 401, 'not_authenticated');
    expect((await login(stack.client(), { email: user.email, password: 'a brand new password' })).status).toBe(200);
    expectOwaspArgon2id((await userByEmail(user.email)).password_hash);
  });

  it('ends every session of the user: old access cookies get 401 and the refresh cookie no longer refreshes', async () => {
    const user = await createOwner(stack.ctx.db);
    const browsers = [stack.client(), stack.client()];
    for (const browser of browsers) {
      await signIn(browser, user);
      expect((await browser.get(`${AUTH}/me`)).status).toBe(200);
    }

    const token = await resetToken(user.email);
    expect((await post('/password-reset/confirm', { token, new_password: 'another new password' })).status).toBe(200);

    for (const browser of browsers) {
      expectAuthError(await browser.get(`${AUTH}/me`), 401, 'not_authenticated');
      expectAuthError(await browser.post(`${AUTH}/refresh`), 401, 'not_authenticated');
    }
  });

  it('accepts a reset token once; the second use is 401', async () => {
    const user = await createOwner(stack.ctx.db);
    const token = await resetToken(user.email);
    expect((await post('/password-reset/confirm', { token, new_password: 'first new password' })).status).toBe(200);
    expectAuthError(await post('/password-reset/confirm', { token, new_password: 'second new password' }), 401, 'not_authenticated');
    expect((await login(stack.client(), { email: user.email, password: 'first new password' })).status).toBe(200);
  });

  it('issues tokens for 30 minutes and refuses an expired one with 401', async () => {
    const user = await createOwner(stack.ctx.db);
    const token = await resetToken(user.email);
    expect(await tokenLifetimeSeconds(user.userId, 'password_reset')).toBeCloseTo(30 * 60, -1);
    await expireUserTokens(user.userId, 'password_reset');
    expectAuthError(await post('/password-reset/confirm', { token, new_password: 'too late password' }), 401, 'not_authenticated');
    expect((await login(stack.client(), user)).status).toBe(200);
  });

  it('refuses a weak new password with 422 without using up the token', async () => {
    const user = await createOwner(stack.ctx.db);
    const token = await resetToken(user.email);
    const weak = await post('/password-reset/confirm', { token, new_password: 'short' });
    expectAuthError(weak, 422, 'validation_error');
    expect(weak.body.detail).toMatch(/new_password/);
    expect((await post('/password-reset/confirm', { token, new_password: 'long enough now' })).status).toBe(200);
  });

  it('refuses a token that was never issued with 401', async () => {
    expectAuthError(await post('/password-reset/confirm', { token: GARBAGE_TOKEN, new_password: 'whatever password' }), 401, 'not_authenticated');
  });
});

// ---- per-address limit of the request endpoints ----------------------------------------------

describe('request endpoints with RATE_LIMIT_EMAIL=2/1m', () => {
  let limited: Stack;
  let nextIp = 1;
  // X-Forwarded-For is believed from loopback here, so each request can come from its own IP and
  // only the per-address limit can refuse it.
  const fromNewIp = () => ({ 'x-forwarded-for': `198.51.100.${nextIp++}` });

  beforeAll(async () => {
    limited = await startStack({ env: { RATE_LIMIT_EMAIL: '2/1m', TRUSTED_PROXIES: 'loopback' } });
  });
  afterAll(async () => {
    await limited?.stop();
  });

  it.each(['/password-reset/request', '/email/verification/request'])(
    '%s refuses the third request for one address from another IP, known or unknown alike',
    async (path) => {
      const known = (await createOwner(limited.ctx.db, { verified: false })).email;
      const unknown = uniqueEmail();
      for (const email of [known, unknown]) {
        for (let attempt = 1; attempt <= 2; attempt++) {
          expect((await post(path, { email }, { on: limited, headers: fromNewIp() })).status).toBe(200);
        }
        const refused = await post(path, { email }, { on: limited, headers: fromNewIp() });
        expectAuthError(refused, 429, 'rate_limit_exceeded');
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      }
      // Another address from a fresh IP is not affected.
      expect((await post(path, { email: uniqueEmail() }, { on: limited, headers: fromNewIp() })).status).toBe(200);
    },
  );
});

// ---- GET /status -----------------------------------------------------------------------------

describe('GET /status', () => {
  it('is 200 operational when Postgres and Redis answer', async () => {
    const reply = await stack.client().get(`${AUTH}/status`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'operational', checks: { postgres: 'ok', redis: 'ok' } });
  });

  describe.each([
    ['Redis', { REDIS_URL: 'redis://127.0.0.1:1/0' }, { postgres: 'ok', redis: 'unavailable' }],
    ['Postgres', { DATABASE_URL: 'postgres://berth:berth@127.0.0.1:1/x' }, { postgres: 'unavailable', redis: 'ok' }],
  ])('when %s is down', (_service, env, checks) => {
    let degraded: Stack;
    beforeAll(async () => {
      degraded = await startStack({ env, workers: false });
      // The API's Redis client fails fast (no offline queue) and is still connecting when the stack
      // is up; wait for it, or the healthy Redis would briefly read as unavailable.
      if (checks.redis === 'ok' && degraded.ctx.redis.status !== 'ready') await once(degraded.ctx.redis, 'ready');
    });
    afterAll(async () => {
      await degraded?.stop();
    });

    it('is 503 degraded and names the service', async () => {
      const reply = await degraded.client().get(`${AUTH}/status`);
      expect(reply.status).toBe(503);
      expect(reply.body).toEqual({ status: 'degraded', checks });
    });
  });
});

// ---- mail content ----------------------------------------------------------------------------

describe('mail content', () => {
  it('escapes a team name in the HTML part of the invite mail', async () => {
    const teamName = '<script>alert(1)</script>';
    const owner = await registerOwner({ team_name: teamName });
    const invitee = uniqueEmail();
    await createInvite(stack.ctx, { teamId: owner.teamId, email: invitee, roleId: developerRoleId, invitedByUserId: owner.userId });
    const mail = await stack.mailbox.waitFor(invitee, INVITE_SUBJECT);

    expect(mail.subject).toBe(`You are invited to join ${teamName} on Berth`);
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).not.toContain('<script>');
  });
});
