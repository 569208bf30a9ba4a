import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, forwardedFor, type Reply } from '../../helpers/client.ts';
import { expectAuthError } from '../../helpers/expect-error.ts';
import { createOwner, deviceFingerprint, exchange, preAuthTokenOf, trustDevice, type TestUser } from '../../helpers/factories.ts';
import type { ReceivedMail } from '../../helpers/mailbox.ts';
import { PANEL_URL, startStack, type Stack } from '../../helpers/stack.ts';

const AUTH = '/api/v1/auth';
const OTHER_DEVICE = 'b'.repeat(64);
// Real public addresses, looked up in the offline GeoIP database; no traffic goes to them.
const US = '8.8.8.8'; // US, country-level coordinates (37.75, -97.82)
const US_OTHER_NETWORK = '64.233.160.1'; // US, same coordinates, another /24
const GB = '81.2.69.142'; // GB, Bracknell
const UNLOCATED = '1.1.1.1'; // public, but not in the database

let stack: Stack;
beforeAll(async () => {
  // X-Forwarded-For from loopback is believed, so each request can come "from" another address.
  stack = await startStack({ env: { TRUSTED_PROXIES: 'loopback' } });
});
afterAll(async () => {
  await stack?.stop();
});

// ---- helpers -------------------------------------------------------------------------------------

/** Both steps from `ip` on the default (trusted) device; returns the signed-in client. */
async function signInFrom(user: TestUser, ip?: string, fingerprint = deviceFingerprint): Promise<Client> {
  const client = stack.client();
  // session_info states Lisbon, PT: the server must ignore it for risk
  const reply = await exchange(client, await preAuthTokenOf(client, user, forwardedFor(ip)), user.teamId, fingerprint, forwardedFor(ip));
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return client;
}

const alertsOf = (user: TestUser) => stack.ctx.db('login_alerts').where({ user_id: user.userId }).orderBy('id');
const activityOf = (user: TestUser) => stack.ctx.db('login_activity').where({ user_id: user.userId }).orderBy('id');

/** Moves all of the user's activity `hours` into the past. */
async function age(user: TestUser, hours: number): Promise<void> {
  await stack.ctx
    .db('login_activity')
    .where({ user_id: user.userId })
    .update({ created_at: stack.ctx.db.raw(`created_at - make_interval(hours => ?)`, [hours]) });
}

async function alertMail(user: TestUser): Promise<{ mail: ReceivedMail; approve: URL; deny: URL; token: string }> {
  const mail = await stack.mailbox.waitFor(user.email, /New sign-in/);
  const links = [...mail.text.matchAll(/https?:\/\/\S+/g)].map((match) => new URL(match[0]));
  const approve = links.find((link) => link.pathname === '/login/approve');
  const deny = links.find((link) => link.pathname === '/login/deny');
  if (!approve || !deny) throw new Error(`alert mail lacks a link: ${mail.text}`);
  expect(approve.searchParams.get('token')).toBe(deny.searchParams.get('token'));
  return { mail, approve, deny, token: approve.searchParams.get('token')! };
}

/** A user with a history in the US (8.8.8.8, two days ago), then a sign-in from Great Britain. */
async function alertedFromGb() {
  const user = await createOwner(stack.ctx.db);
  const home = await signInFrom(user, US);
  await age(user, 48);
  const away = await signInFrom(user, GB);
  return { user, home, away, ...(await alertMail(user)) };
}

const decide = (verb: 'approve' | 'deny', token: string) => stack.client().post(`${AUTH}/login/${verb}`, { token });

// ---- where a sign-in comes from ------------------------------------------------------------------

describe('login activity location', () => {
  it('comes from the IP the server saw, not from session_info; a first sign-in raises no alert', async () => {
    const user = await createOwner(stack.ctx.db);
    const client = await signInFrom(user, US);
    expect(await refresh(client, GB)).toBe(200);

    const [login, refreshed] = await activityOf(user);
    expect(login).toMatchObject({ event_type: 'login', ip: US, country: 'US', network: '8.8.8.0/24' });
    expect(login.latitude).toBeCloseTo(37.751, 2);
    expect(login.longitude).toBeCloseTo(-97.822, 2);
    expect(refreshed).toMatchObject({ event_type: 'refresh', ip: GB, country: 'GB', network: '81.2.69.0/24' });
    expect(await alertsOf(user)).toEqual([]);
  });

  it('is unknown for loopback and for addresses the database lacks; only their network is recorded', async () => {
    const user = await createOwner(stack.ctx.db);
    await signInFrom(user);
    await signInFrom(user, UNLOCATED);
    const rows = await activityOf(user);
    expect(rows.map((row) => [row.ip, row.country, row.network, row.latitude])).toEqual([
      ['127.0.0.1', null, '127.0.0.0/24', null],
      [UNLOCATED, null, '1.1.1.0/24', null],
    ]);
  });

  async function refresh(client: Client, ip: string): Promise<number> {
    return (await client.post(`${AUTH}/refresh`, undefined, forwardedFor(ip))).status;
  }
});

// ---- suspicious sign-ins -------------------------------------------------------------------------

describe('suspicious sign-in rules', () => {
  it('a sign-in from the same country and network is not suspicious', async () => {
    const user = await createOwner(stack.ctx.db);
    await signInFrom(user, US);
    await signInFrom(user, US);
    expect(await alertsOf(user)).toEqual([]);
  });

  it('a new country alerts by e-mail with approve and deny links to the panel', async () => {
    const { user, mail, approve, deny } = await alertedFromGb();
    const [alert] = await alertsOf(user);
    expect(alert).toMatchObject({ reasons: ['new_country', 'new_network'], ip: GB, country: 'GB', network: '81.2.69.0/24', decision: null });
    expect(alert.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(`${approve.origin}${approve.pathname}`).toBe(`${PANEL_URL}/login/approve`);
    expect(`${deny.origin}${deny.pathname}`).toBe(`${PANEL_URL}/login/deny`);
    expect(approve.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail.text).toContain(GB);
    expect(mail.html).toContain(`href="${approve.toString()}"`);
  });

  it('a new network in a known country alerts with new_network only', async () => {
    const user = await createOwner(stack.ctx.db);
    await signInFrom(user, US);
    await signInFrom(user, US_OTHER_NETWORK);
    expect((await alertsOf(user)).map((alert) => alert.reasons)).toEqual([['new_network']]);
    await alertMail(user);
  });

  it('an address without a location is judged by its network alone', async () => {
    const user = await createOwner(stack.ctx.db);
    await signInFrom(user, US);
    await signInFrom(user, UNLOCATED);
    expect((await alertsOf(user)).map((alert) => alert.reasons)).toEqual([['new_network']]);
  });

  it('impossible travel alerts even from a known country and network', async () => {
    const user = await createOwner(stack.ctx.db);
    await seedActivity(user, { minutesAgo: 30 }); // New York, 30 minutes ago; US center is ~1,900 km away
    await signInFrom(user, US);
    expect((await alertsOf(user)).map((alert) => alert.reasons)).toEqual([['impossible_travel']]);
    expect((await alertMail(user)).mail.text).toMatch(/too far from your previous sign-in/);
  });

  it('the same distance over days is possible travel', async () => {
    const user = await createOwner(stack.ctx.db);
    await seedActivity(user, { minutesAgo: 3 * 24 * 60 });
    await signInFrom(user, US);
    expect(await alertsOf(user)).toEqual([]);
  });

  async function seedActivity(user: TestUser, options: { minutesAgo: number }): Promise<void> {
    await stack.ctx.db('login_activity').insert({
      user_id: user.userId,
      event_type: 'login',
      ip: US,
      country: 'US',
      network: '8.8.8.0/24',
      latitude: 40.7128,
      longitude: -74.006,
      created_at: stack.ctx.db.raw(`now() - make_interval(mins => ?)`, [options.minutesAgo]),
    });
  }
});

describe('POST /login/approve', () => {
  it('approves once; the approved place is known from then on', async () => {
    const { user, token } = await alertedFromGb();
    const approved = await decide('approve', token);
    expect({ status: approved.status, body: approved.body }).toEqual({ status: 200, body: { status: 'approved' } });
    expect((await alertsOf(user))[0]).toMatchObject({ decision: 'approved' });

    expectAuthError(await decide('approve', token), 401, 'not_authenticated');
    expectAuthError(await decide('deny', token), 401, 'not_authenticated');
    await signInFrom(user, GB);
    expect(await alertsOf(user)).toHaveLength(1);
  });

  it('refuses an expired or unknown token', async () => {
    const { user, token, away } = await alertedFromGb();
    await stack.ctx
      .db('login_alerts')
      .where({ user_id: user.userId })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expectAuthError(await decide('approve', token), 401, 'not_authenticated');
    expectAuthError(await decide('deny', token), 401, 'not_authenticated');
    expectAuthError(await decide('approve', 'x'.repeat(43)), 401, 'not_authenticated');
    expect((await alertsOf(user))[0]).toMatchObject({ decision: null });
    expect((await away.get(`${AUTH}/me`)).status).toBe(200);
  });

  it('has no GET: opening a link changes nothing', async () => {
    const { user, approve, deny, away, token } = await alertedFromGb();
    for (const link of [approve, deny]) {
      expectAuthError(await stack.client().get(`${AUTH}${link.pathname}${link.search}`), 404, 'not_found');
    }
    expect((await alertsOf(user))[0]).toMatchObject({ decision: null });
    expect((await away.get(`${AUTH}/me`)).status).toBe(200);
    expect((await decide('approve', token)).status).toBe(200);
  });

  it('validates the body', async () => {
    expectAuthError(await stack.client().post(`${AUTH}/login/approve`, {}), 422, 'validation_error');
    expectAuthError(await stack.client().post(`${AUTH}/login/deny`, { token: 5 }), 422, 'validation_error');
  });
});

describe('POST /login/deny', () => {
  it('ends the sessions of that sign-in only, mails a password reset, and leaves other users alone', async () => {
    const bystander = await createOwner(stack.ctx.db);
    const bystanderClient = await signInFrom(bystander, US);
    const { user, token, home, away } = await alertedFromGb();

    const denied = await decide('deny', token);
    expect({ status: denied.status, body: denied.body }).toEqual({ status: 200, body: { status: 'denied' } });

    expectAuthError(await away.get(`${AUTH}/me`), 401, 'not_authenticated');
    expect((await home.get(`${AUTH}/me`)).status).toBe(200);
    expect((await bystanderClient.get(`${AUTH}/me`)).status).toBe(200);
    const reset = await stack.mailbox.waitFor(user.email, /Reset your Berth password/);
    expect(reset.text).toContain(`${PANEL_URL}/reset-password?token=`);
    expect(stack.mailbox.to(bystander.email)).toEqual([]);

    expectAuthError(await decide('deny', token), 401, 'not_authenticated');
    expectAuthError(await decide('approve', token), 401, 'not_authenticated');
  });

  it('keeps the denied place unknown: the next sign-in from there alerts again', async () => {
    const { user, token } = await alertedFromGb();
    expect((await decide('deny', token)).status).toBe(200);
    await signInFrom(user, GB);
    expect((await alertsOf(user)).map((alert) => [alert.decision, alert.reasons])).toEqual([
      ['denied', ['new_country', 'new_network']],
      [null, ['new_country', 'new_network']],
    ]);
  });
});

// ---- concurrent sign-ins -------------------------------------------------------------------------

/** A user signed in on the default device, and a pre-auth token for a second, trusted device. */
async function secondDevice() {
  const user = await createOwner(stack.ctx.db);
  await trustDevice(stack.ctx.db, user.userId, OTHER_DEVICE);
  const live = await signInFrom(user);
  const newcomer = stack.client();
  const token = await preAuthTokenOf(newcomer, user);
  const tryExchange = () => exchange(newcomer, token, user.teamId, OTHER_DEVICE);
  return { user, live, newcomer, tryExchange };
}

async function pendingToken(reply: Reply): Promise<string> {
  expect({ status: reply.status, body: reply.body }).toEqual({
    status: 423,
    body: { detail: { status: 'pending', token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) }, code: 'concurrent_login_pending' },
  });
  expect(reply.setCookies).toEqual([]);
  return reply.body.detail.token as string;
}

const decideConcurrent = (client: Client, verb: 'approve' | 'deny', token: string) => client.post(`${AUTH}/concurrent-login/${verb}`, { token });

describe('concurrent sign-in', () => {
  it('waits (423) while another device is signed in, notifies, and continues once the live session approves', async () => {
    const { user, live, newcomer, tryExchange } = await secondDevice();
    const token = await pendingToken(await tryExchange());
    expect(await pendingToken(await tryExchange())).toBe(token);

    const mail = await stack.mailbox.waitFor(user.email, /waiting for your approval/);
    const link = new URL(mail.text.match(/https?:\/\/\S+/)![0]);
    expect(`${link.origin}${link.pathname}`).toBe(`${PANEL_URL}/concurrent-login`);
    expect(link.searchParams.get('token')).toBe(token);

    const listed = await live.get(`${AUTH}/concurrent-login/requests`);
    expect(listed.status).toBe(200);
    expect(listed.body.requests).toEqual([expect.objectContaining({ token, team_id: user.teamId, ip: '127.0.0.1', device_fingerprint: OTHER_DEVICE })]);

    const approved = await decideConcurrent(live, 'approve', token);
    expect({ status: approved.status, body: approved.body }).toEqual({ status: 200, body: { status: 'approved' } });
    const exchanged = await tryExchange();
    expect(exchanged.status).toBe(200);
    expect((await newcomer.get(`${AUTH}/me`)).status).toBe(200);
    expect((await live.get(`${AUTH}/me`)).status).toBe(200);
    expect((await live.get(`${AUTH}/concurrent-login/requests`)).body.requests).toEqual([]);
  });

  it('answers 423 concurrent_login_denied once denied, for good', async () => {
    const { live, tryExchange } = await secondDevice();
    const token = await pendingToken(await tryExchange());
    const denied = await decideConcurrent(live, 'deny', token);
    expect({ status: denied.status, body: denied.body }).toEqual({ status: 200, body: { status: 'denied' } });
    expectAuthError(await tryExchange(), 423, 'concurrent_login_denied');
    expectAuthError(await decideConcurrent(live, 'approve', token), 404, 'not_found');
    expectAuthError(await tryExchange(), 423, 'concurrent_login_denied');
  });

  it('is useless to another user: 404, and nothing changes', async () => {
    const { user, live, tryExchange } = await secondDevice();
    const token = await pendingToken(await tryExchange());
    const other = await createOwner(stack.ctx.db);
    const otherClient = await signInFrom(other);

    expectAuthError(await decideConcurrent(otherClient, 'approve', token), 404, 'not_found');
    expectAuthError(await decideConcurrent(otherClient, 'deny', token), 404, 'not_found');
    expect((await otherClient.get(`${AUTH}/concurrent-login/requests`)).body.requests).toEqual([]);
    expect(await stack.ctx.db('concurrent_login_requests').where({ user_id: user.userId }).select('status', 'decided_at')).toEqual([
      { status: 'pending', decided_at: null },
    ]);
    expect(await pendingToken(await tryExchange())).toBe(token);
    expect((await decideConcurrent(live, 'approve', token)).status).toBe(200);
  });

  it('is decided only with a session and CSRF', async () => {
    const { live, tryExchange } = await secondDevice();
    const token = await pendingToken(await tryExchange());
    expectAuthError(await decideConcurrent(stack.client(), 'approve', token), 401, 'not_authenticated');
    expectAuthError(await live.post(`${AUTH}/concurrent-login/approve`, { token }, { csrf: false }), 403, 'csrf_mismatch');
    expectAuthError(await live.post(`${AUTH}/concurrent-login/approve`, { token }, { origin: 'https://evil.example' }), 403, 'csrf_mismatch');
    expectAuthError(await stack.client().get(`${AUTH}/concurrent-login/requests`), 401, 'not_authenticated');
    expect(await pendingToken(await tryExchange())).toBe(token);
  });

  it('expires after 10 minutes: the retry answers 401', async () => {
    const { user, live, tryExchange } = await secondDevice();
    const token = await pendingToken(await tryExchange());
    await stack.ctx
      .db('concurrent_login_requests')
      .where({ user_id: user.userId })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expectAuthError(await tryExchange(), 401, 'not_authenticated');
    expectAuthError(await decideConcurrent(live, 'approve', token), 404, 'not_found');
    expect((await live.get(`${AUTH}/concurrent-login/requests`)).body.requests).toEqual([]);
  });

  it('needs no approval when the team allows concurrent sessions', async () => {
    const { user, tryExchange } = await secondDevice();
    await stack.ctx
      .db('teams')
      .where({ id: user.teamId })
      .update({ settings: stack.ctx.db.raw(`settings || '{"concurrent_sessions": "allow"}'`) });
    expect((await tryExchange()).status).toBe(200);
    expect(await stack.ctx.db('concurrent_login_requests').where({ user_id: user.userId })).toEqual([]);
  });

  it('needs no approval from the same device', async () => {
    const user = await createOwner(stack.ctx.db);
    const first = await signInFrom(user);
    const second = await signInFrom(user);
    expect((await first.get(`${AUTH}/me`)).status).toBe(200);
    expect((await second.get(`${AUTH}/me`)).status).toBe(200);
  });

  it('counts only live sessions: a logged-out one, or one waiting for its second factor, does not', async () => {
    const loggedOut = await secondDevice();
    expect((await loggedOut.live.post(`${AUTH}/logout`)).status).toBe(200);
    expect((await loggedOut.tryExchange()).status).toBe(200);

    const pendingSecondFactor = await secondDevice();
    await stack.ctx.db('sessions').where({ user_id: pendingSecondFactor.user.userId }).update({ second_factor_pending: true });
    expect((await pendingSecondFactor.tryExchange()).status).toBe(200);
  });
});
