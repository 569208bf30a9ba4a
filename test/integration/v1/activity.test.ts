import express from 'express';
import { decodeJwt } from 'jose';
import knexFactory from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestContext } from '../../../api/middleware/request-context.ts';
import { activityRoutes } from '../../../api/activity/activity.routes.ts';
import { auditTrail } from '../../../api/v1/audit.ts';
import { v1Router } from '../../../api/v1/authorize.ts';
import { sendData } from '../../../api/v1/envelope.ts';
import { idempotency } from '../../../api/v1/idempotency.ts';
import { identifyPrincipal } from '../../../api/v1/principal.ts';
import { v1ErrorHandler } from '../../../api/v1/v1-errors.ts';
import { v1Routes } from '../../../api/v1/v1.routes.ts';
import { hashToken, randomToken } from '../../../shared/crypto/tokens.ts';
import type { Db } from '../../../shared/db/knex.ts';
import { issueUserToken } from '../../../shared/domains/auth/user-tokens.ts';
import { base32Decode } from '../../../shared/domains/auth/totp/base32.ts';
import { totpCode, totpStep } from '../../../shared/domains/auth/totp/totp-code.ts';
import { bearer, type Client, type Reply } from '../../helpers/client.ts';
import { createOwner, DEFAULT_PASSWORD, signedInClient, signIn, trustDevice, unique, uniqueEmail, type TestUser } from '../../helpers/factories.ts';
import { serveProbeApp, type ProbeApp } from '../../helpers/probe-app.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';

const AUTH = '/api/v1/auth';
const USER_AGENT = 'activity-test/1.0 (+https://example.test)';

type Entry = {
  id: number;
  action: string;
  outcome: string;
  status: number | null;
  actor: { user_id: number | null; name: string | null; email: string | null; via: string; api_token_id: number | null };
  target: { type: string; id: string | null };
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  metadata: Record<string, unknown>;
  created_at: string;
};

let stack: Stack;
let probe: ProbeApp;
let unreachableDb: Db;
/** Every secret a test handed to the API; none may appear anywhere in the trail. */
const secrets = new Set<string>([DEFAULT_PASSWORD]);

/** A bearer request from the test's user agent (the trail records it). */
const bearerWithAgent = (token: string, headers: Record<string, string> = {}) => bearer(token, { 'user-agent': USER_AGENT, ...headers });

/**
 * No route of the app changes anything through /v1 yet in this file's reach, and the app gets no
 * fake route: a probe app assembled exactly like api/app.ts assembles /v1 (real principal, audit
 * trail, idempotency, error handler and 404 fallback) serves routes declaring `audit`. A second
 * mount records into a database that cannot be reached, to show a failed insert is not a failed answer.
 */
function startAuditProbe(): Promise<ProbeApp> {
  const things = v1Router()
    .route(
      {
        method: 'post',
        path: '/probe-things',
        operationId: 'probe.call1',
        summary: 'Probe',
        tags: ['test'],
        permission: 'sites:create',
        audit: { action: 'probe.created', target: 'probe' },
        responses: { 201: { description: 'Created' } },
      },
      (req, res) => sendData(req, res, { id: 41 }, 201),
    )
    .route(
      {
        method: 'patch',
        path: '/probe-things/:thingId',
        operationId: 'probe.call2',
        summary: 'Probe',
        tags: ['test'],
        permission: 'sites:update',
        audit: { action: 'probe.updated', target: 'probe' },
        responses: { 200: { description: 'Updated' } },
      },
      (req, res) => sendData(req, res, { id: Number(req.params.thingId) }),
    )
    .route(
      {
        method: 'delete',
        path: '/probe-things/:thingId',
        operationId: 'probe.call3',
        summary: 'Probe',
        tags: ['test'],
        permission: 'sites:delete',
        audit: { action: 'probe.deleted', target: 'probe' },
        responses: { 204: { description: 'Deleted' } },
      },
      (_req, res) => void res.status(204).end(),
    )
    .route(
      {
        method: 'post',
        path: '/probe-things/:thingId/notes/:noteId',
        operationId: 'probe.call4',
        summary: 'Probe',
        tags: ['test'],
        permission: 'sites:update',
        audit: { action: 'probe.noted', target: 'probe', targetParam: 'thingId' },
        responses: { 200: { description: 'Noted' } },
      },
      (req, res) => sendData(req, res, { id: 99 }),
    );
  const fallback: express.RequestHandler = (req, res) => {
    res.status(404).json({ error: { code: 'NOT_FOUND', message: `No endpoint ${req.method}`, details: {} }, meta: {} });
  };
  const app = express();
  app.use(requestContext(stack.ctx.logger));
  app.use(
    '/v1',
    identifyPrincipal(stack.ctx),
    express.json(),
    auditTrail(stack.ctx),
    idempotency(stack.ctx),
    things.router,
    activityRoutes(stack.ctx).router,
    fallback,
    v1ErrorHandler,
  );
  app.use('/v1-unrecorded', identifyPrincipal(stack.ctx), express.json(), auditTrail({ db: unreachableDb }), things.router, v1ErrorHandler);
  return serveProbeApp(app);
}

beforeAll(async () => {
  stack = await startStack();
  // Nothing listens on port 1; knex's own console logging of the refusal is silenced.
  const quiet = () => undefined;
  unreachableDb = knexFactory({ client: 'pg', connection: 'postgres://berth:berth@127.0.0.1:1/berth_unreachable', log: { error: quiet, warn: quiet } });
  probe = await startAuditProbe();
});
afterAll(async () => {
  await new Promise((resolve) => probe?.server.close(resolve));
  await unreachableDb?.destroy();
  await stack?.stop();
});

// ---- helpers -------------------------------------------------------------------------------------

type SignedIn = { user: TestUser; client: Client; token: string; sessionId: string };

/** `user` (a fresh owner unless given) signed in: the session's access token (noted as a secret, with the refresh token) and id. */
async function signedInSession(user?: TestUser): Promise<SignedIn> {
  const { user: who, client } = await signedInClient(stack, { user });
  const token = client.jar.get('svc_access')!;
  secrets.add(token).add(client.jar.get('svc_refresh')!);
  return { user: who, client, token, sessionId: decodeJwt(token).sid as string };
}

async function roleId(name: string, teamId: number | null = null): Promise<number> {
  const query = stack.ctx.db('roles').where({ name });
  const row = await (teamId === null ? query.whereNull('team_id') : query.where({ team_id: teamId })).first('id');
  return row.id as number;
}

/** A new user who is a member of `teamId` with the built-in role, trusted device and all. */
async function memberOf(teamId: number, role: string, status = 'ACTIVE'): Promise<TestUser> {
  const member = await createOwner(stack.ctx.db);
  await stack.ctx.db('memberships').insert({ team_id: teamId, user_id: member.userId, role_id: await roleId(role), status });
  return { ...member, teamId };
}

async function trailOf(token: string, query = ''): Promise<Entry[]> {
  const reply = await stack.client().get(`/v1/activity${query}`, bearerWithAgent(token));
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.data as Entry[];
}

/** The team's entries straight from the database, for what the API must not show or must not do. */
async function rowsOfTeam(teamId: number): Promise<Array<Record<string, unknown>>> {
  return stack.ctx.db('activity').where({ team_id: teamId }).orderBy('id');
}

function expectValidationError(reply: Reply, field: string): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(422);
  expect(reply.body.error.code).toBe('VALIDATION_ERROR');
  expect((reply.body.error.details.fields as Array<{ field: string }>).map((problem) => problem.field)).toContain(field);
}

// ---- recording mutating /v1 requests -------------------------------------------------------------

describe('mutating /v1 requests', () => {
  it('records one entry per request: actor, action, target, IP, user agent, request id and status', async () => {
    const owner = await signedInSession();
    const created = await probe.client().post('/v1/probe-things', { name: 'x' }, bearerWithAgent(owner.token));
    expect(created.status).toBe(201);

    const entries = await trailOf(owner.token, '?action=probe.created');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'probe.created',
      outcome: 'success',
      status: 201,
      actor: { user_id: owner.user.userId, name: owner.user.name, email: owner.user.email, via: 'session', api_token_id: null },
      target: { type: 'probe', id: '41' },
      ip: '127.0.0.1',
      user_agent: USER_AGENT,
      request_id: created.headers.get('x-request-id'),
      metadata: { method: 'POST', path: '/v1/probe-things' },
    });
    expect(Date.parse(entries[0]!.created_at)).not.toBeNaN();
  });

  it('takes the target id from the path (the last parameter, or the declared one), and records 204 answers', async () => {
    const owner = await signedInSession();
    expect((await probe.client().request('PATCH', '/v1/probe-things/7', { json: {}, ...bearer(owner.token) })).status).toBe(200);
    expect((await probe.client().request('DELETE', '/v1/probe-things/8', bearerWithAgent(owner.token))).status).toBe(204);
    expect((await probe.client().post('/v1/probe-things/5/notes/6', {}, bearerWithAgent(owner.token))).status).toBe(200);

    const byAction = new Map((await trailOf(owner.token, '?action=probe.*')).map((entry) => [entry.action, entry]));
    expect(byAction.get('probe.updated')).toMatchObject({ target: { type: 'probe', id: '7' }, status: 200 });
    expect(byAction.get('probe.deleted')).toMatchObject({
      target: { type: 'probe', id: '8' },
      status: 204,
      metadata: { method: 'DELETE', path: '/v1/probe-things/8' },
    });
    expect(byAction.get('probe.noted')).toMatchObject({ target: { type: 'probe', id: '5' } });
  });

  it('records a denied attempt (403) with its status, error and the missing permission', async () => {
    const owner = await signedInSession();
    const viewer = await signedInSession(await memberOf(owner.user.teamId, 'viewer'));
    const denied = await probe.client().post('/v1/probe-things', {}, bearerWithAgent(viewer.token));
    expect(denied.status).toBe(403);

    const [entry] = await trailOf(owner.token, `?action=probe.created&actor_user_id=${viewer.user.userId}`);
    expect(entry).toMatchObject({
      outcome: 'denied',
      status: 403,
      actor: { user_id: viewer.user.userId },
      target: { type: 'probe', id: null },
      request_id: denied.headers.get('x-request-id'),
      metadata: { method: 'POST', path: '/v1/probe-things', error: 'AUTHORIZATION_ERROR', permission: 'sites:create' },
    });
  });

  it('does not record requests without a caller (401: no team to put them in)', async () => {
    const reply = await probe.client().post('/v1/probe-things', {}, { headers: { 'user-agent': USER_AGENT } });
    expect(reply.status).toBe(401);
    expect(
      await stack.ctx
        .db('activity')
        .where({ request_id: reply.headers.get('x-request-id') })
        .count({ count: '*' }),
    ).toEqual([{ count: 0 }]);
  });

  it('records an Idempotency-Key repeat once: the replay is answered before any route', async () => {
    const owner = await signedInSession();
    const key = unique('key');
    const first = await probe.client().post('/v1/probe-things', { a: 1 }, bearerWithAgent(owner.token, { 'idempotency-key': key }));
    const again = await probe.client().post('/v1/probe-things', { a: 1 }, bearerWithAgent(owner.token, { 'idempotency-key': key }));
    expect([first.status, again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 201, 'true']);
    const entries = await trailOf(owner.token, '?action=probe.created');
    expect(entries.map((entry) => entry.request_id)).toEqual([first.headers.get('x-request-id')]);
  });

  it('answers normally when the entry cannot be written (the failure is logged)', async () => {
    const owner = await signedInSession();
    const reply = await probe.client().post('/v1-unrecorded/probe-things', {}, bearerWithAgent(owner.token));
    expect(reply.status).toBe(201);
    expect(reply.body.data).toEqual({ id: 41 });
  });

  it("records the app's own routes, with an API token as the actor when one is used", async () => {
    const owner = await signedInSession();
    const created = await stack.client().post('/v1/api-tokens', { name: 'ci', permissions: ['api_tokens:*', 'activity:read'] }, bearerWithAgent(owner.token));
    expect(created.status).toBe(201);
    const apiToken = created.body.data as { id: number; token: string };
    secrets.add(apiToken.token);

    const child = await stack.client().post('/v1/api-tokens', { name: 'child', permissions: ['activity:read'] }, bearerWithAgent(apiToken.token));
    expect(child.status).toBe(201);
    secrets.add(child.body.data.token);
    const revoked = await stack.client().request('DELETE', `/v1/api-tokens/${child.body.data.id}`, bearerWithAgent(apiToken.token));
    expect(revoked.status).toBe(200);

    const entries = await trailOf(apiToken.token, '?action=api_token.*');
    expect(entries.map((entry) => [entry.action, entry.target.id, entry.actor.via, entry.actor.api_token_id])).toEqual([
      ['api_token.revoked', String(child.body.data.id), 'api_token', apiToken.id],
      ['api_token.created', String(child.body.data.id), 'api_token', apiToken.id],
      ['api_token.created', String(apiToken.id), 'session', null],
    ]);
    expect(entries.every((entry) => entry.actor.user_id === owner.user.userId)).toBe(true);
    expect(entries[0]!.request_id).toBe(revoked.headers.get('x-request-id'));
  });

  it('is declared by every unsafe /v1 route of the app', () => {
    const undeclared = v1Routes(stack.ctx)
      .docs.filter((doc) => doc.method !== 'get' && !doc.audit)
      .map((doc) => `${doc.method.toUpperCase()} /v1${doc.path}`);
    expect(undeclared).toEqual([]);
  });
});

// ---- auth events ---------------------------------------------------------------------------------

describe('auth events', () => {
  it("records sign-in and logout in the session's team", async () => {
    const owner = await signedInSession();
    const watcher = await signedInSession(await memberOf(owner.user.teamId, 'viewer'));
    const logout = await owner.client.post(`${AUTH}/logout`, undefined, { headers: { 'user-agent': USER_AGENT } });
    expect(logout.status).toBe(200);

    const entries = await trailOf(watcher.token, `?action=auth.*&actor_user_id=${owner.user.userId}`);
    expect(entries.map((entry) => entry.action)).toEqual(['auth.logout', 'auth.login']);
    expect(entries[1]).toMatchObject({
      target: { type: 'session', id: owner.sessionId },
      actor: { via: 'session', email: owner.user.email },
      outcome: 'success',
      status: null,
      ip: '127.0.0.1',
    });
    expect(entries[0]).toMatchObject({
      target: { type: 'session', id: owner.sessionId },
      user_agent: USER_AGENT,
      request_id: logout.headers.get('x-request-id'),
    });
  });

  it('records a refresh-token reuse, which ends the session, as denied', async () => {
    const owner = await signedInSession();
    const watcher = await signedInSession(await memberOf(owner.user.teamId, 'admin'));
    const [oldRefresh, csrf] = [owner.client.jar.get('svc_refresh')!, owner.client.jar.get('svc_csrf')!];
    expect((await owner.client.post(`${AUTH}/refresh`)).status).toBe(200);
    const replay = await stack
      .client()
      .post(`${AUTH}/refresh`, undefined, { headers: { cookie: `svc_refresh=${oldRefresh}; svc_csrf=${csrf}`, 'x-csrf-token': csrf } });
    expect(replay.status).toBe(401);

    const [entry] = await trailOf(watcher.token, '?action=auth.refresh_token_reused');
    expect(entry).toMatchObject({
      outcome: 'denied',
      actor: { user_id: owner.user.userId, via: 'credentials' },
      target: { type: 'session', id: owner.sessionId },
      request_id: replay.headers.get('x-request-id'),
    });
  });

  it('records a password reset in every team the user is an active member of, and in no other', async () => {
    const user = await createOwner(stack.ctx.db);
    const other = await signedInSession();
    const suspendedIn = await signedInSession();
    await stack.ctx.db('memberships').insert({ team_id: other.user.teamId, user_id: user.userId, role_id: await roleId('developer'), status: 'ACTIVE' });
    await stack.ctx
      .db('memberships')
      .insert({ team_id: suspendedIn.user.teamId, user_id: user.userId, role_id: await roleId('developer'), status: 'SUSPENDED' });
    const token = await issueUserToken(stack.ctx.db, user.userId, 'password_reset');
    const newPassword = 'an entirely new passphrase';
    secrets.add(token).add(newPassword);
    const reply = await stack.client().post(`${AUTH}/password-reset/confirm`, { token, new_password: newPassword }, { headers: { 'user-agent': USER_AGENT } });
    expect(reply.status).toBe(200);

    const own = await signedInSession({ ...user, password: newPassword });
    for (const reader of [own, other]) {
      const [entry] = await trailOf(reader.token, '?action=auth.password_reset');
      expect(entry).toMatchObject({
        actor: { user_id: user.userId, via: 'credentials' },
        target: { type: 'user', id: String(user.userId) },
        request_id: reply.headers.get('x-request-id'),
        user_agent: USER_AGENT,
      });
    }
    expect(await trailOf(suspendedIn.token, '?action=auth.password_reset')).toEqual([]);
  });

  it('records registration (team created), e-mail verification and joining by invite', async () => {
    const email = uniqueEmail();
    const registered = await stack
      .client()
      .post(`${AUTH}/register-owner`, { email, password: DEFAULT_PASSWORD, name: 'Reg', team_name: 'Reg Co', team_slug: unique('reg') });
    expect(registered.status).toBe(201);
    const { user_id: userId, team_id: teamId } = registered.body as { user_id: number; team_id: number };
    const verification = await issueUserToken(stack.ctx.db, userId, 'email_verification');
    secrets.add(verification);
    expect((await stack.client().post(`${AUTH}/email/verification/confirm`, { token: verification })).status).toBe(200);

    const inviteToken = randomToken(32);
    const invitedEmail = uniqueEmail();
    secrets.add(inviteToken);
    await stack.ctx.db('invites').insert({
      team_id: teamId,
      role_id: await roleId('developer'),
      email: invitedEmail,
      token_hash: hashToken(inviteToken),
      invited_by_user_id: userId,
      expires_at: new Date(Date.now() + 3_600_000),
    });
    const joined = await stack
      .client()
      .post(`${AUTH}/register-from-invite`, { invite_token: inviteToken, email: invitedEmail, password: DEFAULT_PASSWORD, name: 'Joiner' });
    expect(joined.status).toBe(201);

    await trustDevice(stack.ctx.db, userId);
    const owner = await signedInSession({ userId, teamId, email, password: DEFAULT_PASSWORD, name: 'Reg', teamName: 'Reg Co' });
    const entries = await trailOf(owner.token);
    expect(entries.map((entry) => entry.action)).toEqual(['auth.login', 'member.joined', 'auth.email_verified', 'team.created']);
    expect(entries[3]).toMatchObject({
      actor: { user_id: userId, via: 'credentials', email },
      target: { type: 'team', id: String(teamId) },
      request_id: registered.headers.get('x-request-id'),
    });
    expect(entries[2]).toMatchObject({ target: { type: 'user', id: String(userId) } });
    expect(entries[1]).toMatchObject({
      actor: { user_id: joined.body.user_id, email: invitedEmail, name: 'Joiner' },
      target: { type: 'member', id: String(joined.body.user_id) },
      metadata: { role: 'developer', new_account: true },
    });
  });

  it("records TOTP enabled (in every team of the user) and a backup code used (in the session's team)", async () => {
    const owner = await signedInSession();
    const setup = await owner.client.post(`${AUTH}/totp/setup`);
    expect(setup.status).toBe(200);
    const { secret, backup_codes: backupCodes } = setup.body as { secret: string; backup_codes: string[] };
    const code = totpCode(base32Decode(secret), totpStep(Date.now()));
    for (const value of [secret, code, ...backupCodes]) secrets.add(value);
    expect((await owner.client.post(`${AUTH}/totp/verify`, { totp_code: code })).status).toBe(200);

    const second = stack.client();
    await signIn(second, owner.user);
    expect((await second.post(`${AUTH}/totp/backup`, { backup_code: backupCodes[0] })).status).toBe(200);

    const entries = await trailOf(owner.token, '?action=auth.*');
    expect(entries.map((entry) => entry.action)).toEqual(['auth.backup_code_used', 'auth.login', 'auth.totp_enabled', 'auth.login']);
    expect(entries[1]!.metadata).toEqual({ second_factor_pending: true });
    expect(entries[2]).toMatchObject({ actor: { via: 'session' }, target: { type: 'user', id: String(owner.user.userId) } });
  });

  it('records a device approved with its e-mailed code', async () => {
    const owner = await signedInSession();
    const fingerprint = 'c'.repeat(64);
    const login = await stack.client().post(`${AUTH}/login`, { email: owner.user.email, password: owner.user.password });
    const preAuthToken = login.body.pre_auth_token as string;
    secrets.add(preAuthToken);
    expect((await stack.client().post(`${AUTH}/device/challenge`, { pre_auth_token: preAuthToken, device_fingerprint: fingerprint })).status).toBe(200);
    const mail = await stack.mailbox.waitFor(owner.user.email, /sign-in code/);
    const code = mail.text.match(/Code: (\d{6})/)![1]!;
    secrets.add(code);
    expect(
      (await stack.client().post(`${AUTH}/device/approve`, { pre_auth_token: preAuthToken, device_fingerprint: fingerprint, otp_code: code })).status,
    ).toBe(200);

    const device = await stack.ctx.db('trusted_devices').where({ user_id: owner.user.userId, device_fingerprint: fingerprint }).first('id');
    const [entry] = await trailOf(owner.token, '?action=auth.device_approved');
    expect(entry).toMatchObject({ actor: { via: 'credentials' }, target: { type: 'device', id: String(device.id) } });
  });

  it('records a concurrent sign-in approved from the live session', async () => {
    const owner = await signedInSession();
    const fingerprint = 'd'.repeat(64);
    await trustDevice(stack.ctx.db, owner.user.userId, fingerprint);
    const other = stack.client();
    const login = await other.post(`${AUTH}/login`, { email: owner.user.email, password: owner.user.password });
    const exchange = () =>
      other.post(`${AUTH}/session-exchange`, {
        pre_auth_token: login.body.pre_auth_token,
        team_id: owner.user.teamId,
        session_info: { device_fingerprint: fingerprint },
      });
    const pending = await exchange();
    expect(pending.status).toBe(423);
    const token = pending.body.detail.token as string;
    secrets.add(token);
    expect((await owner.client.post(`${AUTH}/concurrent-login/approve`, { token })).status).toBe(200);
    expect((await exchange()).status).toBe(200);

    const entries = await trailOf(owner.token, '?action=auth.*');
    expect(entries.map((entry) => entry.action)).toEqual(['auth.login', 'auth.concurrent_login_approved', 'auth.login']);
    expect(entries[1]).toMatchObject({
      actor: { via: 'session', user_id: owner.user.userId },
      target: { type: 'concurrent_login' },
      metadata: { decided_by_session_id: owner.sessionId },
    });
  });
});

// ---- reading the trail ---------------------------------------------------------------------------

describe('GET /v1/activity', () => {
  it('filters by actor, action (exact or prefix), target and time, newest first, paginated', async () => {
    const owner = await signedInSession();
    const admin = await signedInSession(await memberOf(owner.user.teamId, 'admin'));
    await probe.client().post('/v1/probe-things', {}, bearerWithAgent(owner.token));
    await probe.client().request('PATCH', '/v1/probe-things/7', { json: {}, ...bearer(owner.token) });
    await probe.client().request('DELETE', '/v1/probe-things/8', bearerWithAgent(admin.token));

    const all = await trailOf(owner.token);
    expect(all.map((entry) => entry.action)).toEqual(['probe.deleted', 'probe.updated', 'probe.created', 'auth.login', 'auth.login']);
    expect(all.map((entry) => entry.id)).toEqual([...all.map((entry) => entry.id)].sort((a, b) => b - a));

    expect((await trailOf(owner.token, '?action=probe.updated')).map((entry) => entry.target.id)).toEqual(['7']);
    expect((await trailOf(owner.token, '?action=probe.*')).length).toBe(3);
    expect((await trailOf(owner.token, '?action=probe*')).length).toBe(3);
    expect((await trailOf(owner.token, '?action=probe.')).length).toBe(0);
    expect((await trailOf(owner.token, `?actor_user_id=${admin.user.userId}`)).map((entry) => entry.action)).toEqual(['probe.deleted', 'auth.login']);
    expect((await trailOf(owner.token, '?target_type=probe&target_id=8')).map((entry) => entry.action)).toEqual(['probe.deleted']);
    expect((await trailOf(owner.token, '?target_type=session')).length).toBe(2);

    const pivot = all[2]!; // probe.created
    const since = await trailOf(owner.token, `?since=${encodeURIComponent(pivot.created_at)}`);
    expect(since.map((entry) => entry.id)).toContain(pivot.id);
    expect(since.every((entry) => entry.created_at >= pivot.created_at)).toBe(true);
    const until = await trailOf(owner.token, `?until=${encodeURIComponent(pivot.created_at)}`);
    expect(until.map((entry) => entry.id)).not.toContain(pivot.id);
    expect(until.every((entry) => entry.created_at < pivot.created_at)).toBe(true);
    expect(await trailOf(owner.token, '?since=2999-01-01')).toEqual([]);
    expect((await trailOf(owner.token, '?until=2999-01-01T00:00:00%2B02:00')).length).toBe(5);

    const page2 = await stack.client().get('/v1/activity?page=2&page_size=2', bearerWithAgent(owner.token));
    expect(page2.status).toBe(200);
    expect(page2.body.pagination).toEqual({ page: 2, page_size: 2, total: 5, total_pages: 3 });
    expect(page2.body.data.map((entry: Entry) => entry.id)).toEqual([all[2]!.id, all[3]!.id]);
  });

  it('answers 422 naming the filter that is wrong', async () => {
    const { token } = await signedInSession();
    const get = (query: string) => stack.client().get(`/v1/activity?${query}`, bearerWithAgent(token));
    expectValidationError(await get('since=yesterday'), 'since');
    expectValidationError(await get('until=2026-13-45T00:00:00Z'), 'until');
    expectValidationError(await get('since=2026-11-22T10:00:00Z&until=2026-11-22T09:00:00Z'), 'until');
    expectValidationError(await get('actor_user_id=abc'), 'actor_user_id');
    expectValidationError(await get('action=mem*ber'), 'action');
    expectValidationError(await get('page_size=101'), 'page_size');
  });

  it("shows one entry by id, and another team's entries never", async () => {
    const mine = await signedInSession();
    const theirs = await signedInSession();
    await probe.client().post('/v1/probe-things', {}, bearerWithAgent(theirs.token));
    const [theirEntry] = await trailOf(theirs.token, '?action=probe.created');

    const myTrail = await trailOf(mine.token);
    expect(myTrail.map((entry) => entry.actor.user_id)).toEqual([mine.user.userId]);
    expect(await trailOf(mine.token, `?actor_user_id=${theirs.user.userId}`)).toEqual([]);
    const foreign = await stack.client().get(`/v1/activity/${theirEntry!.id}`, bearerWithAgent(mine.token));
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');

    const own = await stack.client().get(`/v1/activity/${theirEntry!.id}`, bearerWithAgent(theirs.token));
    expect(own.status).toBe(200);
    expect(own.body.data).toEqual(theirEntry);
    expectValidationError(await stack.client().get('/v1/activity/abc', bearerWithAgent(theirs.token)), 'id');
  });

  it('is readable with activity:read (a viewer), 403 without it, 401 without credentials', async () => {
    const owner = await signedInSession();
    const viewer = await signedInSession(await memberOf(owner.user.teamId, 'viewer'));
    expect((await trailOf(viewer.token)).length).toBeGreaterThan(0);

    const [customRole] = await stack.ctx
      .db('roles')
      .insert({ team_id: owner.user.teamId, name: unique('no-activity'), permissions: ['sites:read'] })
      .returning('id');
    const outsider = await createOwner(stack.ctx.db);
    await stack.ctx.db('memberships').insert({ team_id: owner.user.teamId, user_id: outsider.userId, role_id: customRole.id, status: 'ACTIVE' });
    const limited = await signedInSession({ ...outsider, teamId: owner.user.teamId });
    const denied = await stack.client().get('/v1/activity', bearerWithAgent(limited.token));
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatchObject({ code: 'AUTHORIZATION_ERROR', details: { permission: 'activity:read' } });
    expect((await stack.client().get('/v1/activity/1', bearerWithAgent(limited.token))).status).toBe(403);

    const anonymous = await stack.client().get('/v1/activity');
    expect(anonymous.status).toBe(401);
  });
});

// ---- immutability and secrets --------------------------------------------------------------------

describe('the trail cannot be rewritten', () => {
  it('has no route that changes or deletes an entry (404 from the /v1 fallback), and nothing changes', async () => {
    const owner = await signedInSession();
    const [entry] = await trailOf(owner.token);
    for (const method of ['PATCH', 'PUT', 'DELETE', 'POST']) {
      const path = method === 'POST' ? '/v1/activity' : `/v1/activity/${entry!.id}`;
      const reply = await stack.client().request(method, path, { json: { action: 'rewritten' }, ...bearer(owner.token) });
      expect([method, reply.status, reply.body.error.code]).toEqual([method, 404, 'NOT_FOUND']);
    }
    expect((await stack.client().get(`/v1/activity/${entry!.id}`, bearerWithAgent(owner.token))).body.data).toEqual(entry);
    expect(await rowsOfTeam(owner.user.teamId)).toHaveLength(1);
  });

  it('refuses UPDATE, DELETE and TRUNCATE in the database itself', async () => {
    const owner = await signedInSession();
    const [row] = await rowsOfTeam(owner.user.teamId);
    const id = row!.id as number;
    const db = stack.ctx.db;
    await expect(db.raw('UPDATE activity SET action = ? WHERE id = ?', ['rewritten', id])).rejects.toThrow(/append-only: UPDATE/);
    await expect(db.raw('UPDATE activity SET action = action WHERE false')).rejects.toThrow(/append-only/);
    await expect(db.raw('DELETE FROM activity WHERE id = ?', [id])).rejects.toThrow(/append-only: DELETE/);
    await expect(db.raw('TRUNCATE activity')).rejects.toThrow(/append-only: TRUNCATE/);
    await expect(db.raw('DELETE FROM teams WHERE id = ?', [owner.user.teamId])).rejects.toThrow(/foreign key/);
    expect(await rowsOfTeam(owner.user.teamId)).toEqual([row]);
  });

  it('holds no password, token, secret or code anywhere', async () => {
    const rows = await stack.ctx.db('activity').select('*');
    expect(rows.length).toBeGreaterThan(20);
    const everything = JSON.stringify(rows);
    const found = [...secrets].filter((secret) => everything.includes(secret));
    expect(found).toEqual([]);
    for (const row of rows) expect(Object.keys(row.metadata as object).filter((key) => /password|token$|secret|code$/.test(key))).toEqual([]);
  });
});
