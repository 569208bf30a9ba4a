import { createHash, randomBytes } from 'node:crypto';
import { hashPassword } from '../../shared/crypto/passwords.ts';
import type { Knex } from 'knex';
import type { Db } from '../../shared/db/knex.ts';
import { User } from '../../shared/db/models.ts';
import { createTeamWithOwner } from '../../shared/domains/teams/teams.ts';
import type { Client, Reply, RequestOptions } from './client.ts';
import type { Stack } from './stack.ts';

const AUTH = '/api/v1/auth';

export function unique(prefix: string): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

export function uniqueEmail(): string {
  return `${unique('user')}@example.test`;
}

export const DEFAULT_PASSWORD = 'correct horse battery staple';

export type TestUser = { userId: number; teamId: number; email: string; password: string; name: string; teamName: string };

/** A verified user who owns a fresh team, written straight through the domain (no HTTP, no mail). */
export async function createOwner(db: Db, overrides: { email?: string; password?: string; verified?: boolean } = {}): Promise<TestUser> {
  const email = overrides.email ?? uniqueEmail();
  const password = overrides.password ?? DEFAULT_PASSWORD;
  const name = unique('Name');
  const teamName = unique('Team');
  const passwordHash = await hashPassword(password);
  return db.transaction(async (trx) => {
    const user = await User.query(trx).insertAndFetch({
      email,
      name,
      password_hash: passwordHash,
      email_verified_at: overrides.verified === false ? null : new Date(),
    });
    const { team } = await createTeamWithOwner(trx, { name: teamName, slug: unique('team'), ownerUserId: user.id });
    await trustDevice(trx, user.id);
    return { userId: user.id, teamId: team.id, email, password, name, teamName };
  });
}

export const deviceFingerprint = 'a'.repeat(64);

/** Marks a device as trusted for the user, as an approved device challenge would (skips the e-mailed code). */
export async function trustDevice(db: Db | Knex.Transaction, userId: number, fingerprint = deviceFingerprint): Promise<void> {
  await db('trusted_devices').insert({
    user_id: userId,
    device_fingerprint: fingerprint,
    device_label: 'Test device',
    user_agent: 'vitest',
    first_ip: '127.0.0.1',
    last_ip: '127.0.0.1',
  });
}

/** A device nobody has trusted yet. */
export function newFingerprint(): string {
  return createHash('sha256').update(randomBytes(16)).digest('hex');
}

/** POST /login of the auth surface, as the panel sends it (not remembered unless asked). */
export function login(client: Client, credentials: { email: unknown; password: unknown; rememberMe?: boolean }, options: RequestOptions = {}): Promise<Reply> {
  return client.post(`${AUTH}/login`, { email: credentials.email, password: credentials.password, remember_me: credentials.rememberMe ?? false }, options);
}

/** The pre-auth token of a login that must succeed. */
export async function preAuthTokenOf(client: Client, user: { email: string; password: string }, options: RequestOptions = {}): Promise<string> {
  const reply = await login(client, user, options);
  if (reply.status !== 200) throw new Error(`login failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.pre_auth_token as string;
}

/**
 * POST /session-exchange from `fingerprint`'s device; session_info says Lisbon, PT, which the server
 * must not believe. A `userAgent` goes in session_info and in the User-Agent header.
 */
export function exchange(
  client: Client,
  preAuthToken: string,
  teamId: number,
  fingerprint = deviceFingerprint,
  options: { userAgent?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const sessionInfo = { device_fingerprint: fingerprint, ip: '203.0.113.7', user_agent: options.userAgent ?? 'vitest', geo: { city: 'Lisbon', country: 'PT' } };
  const headers = { ...(options.userAgent ? { 'user-agent': options.userAgent } : {}), ...options.headers };
  return client.post(`${AUTH}/session-exchange`, { pre_auth_token: preAuthToken, team_id: teamId, session_info: sessionInfo }, { headers });
}

/** The spec's two steps through HTTP: POST /login, then POST /session-exchange; returns the exchange reply. */
export async function signIn(client: Client, user: { email: string; password: string; teamId: number }, options: { rememberMe?: boolean } = {}) {
  const loggedIn = await login(client, { email: user.email, password: user.password, rememberMe: options.rememberMe });
  if (loggedIn.status !== 200) throw new Error(`login failed: ${loggedIn.status} ${JSON.stringify(loggedIn.body)}`);
  const exchanged = await exchange(client, loggedIn.body.pre_auth_token, user.teamId);
  if (exchanged.status !== 200) throw new Error(`session exchange failed: ${exchanged.status} ${JSON.stringify(exchanged.body)}`);
  return exchanged;
}

/** Signs the user in to their team (`user.teamId`) and returns the access token to send as a bearer token. */
export async function accessTokenOf(client: Client, user: { email: string; password: string; teamId: number }): Promise<string> {
  const exchange = await signIn(client, user);
  return exchange.setCookies.find((cookie) => cookie.name === 'svc_access')!.value;
}

/** A new client of `stack` signed in as `user` (a fresh owner unless given), its session's cookies in its jar; with the exchange's reply. */
export async function signedInClient(
  stack: Pick<Stack, 'client' | 'ctx'>,
  options: { user?: TestUser; rememberMe?: boolean } = {},
): Promise<{ user: TestUser; client: Client; exchanged: Reply }> {
  const user = options.user ?? (await createOwner(stack.ctx.db));
  const client = stack.client();
  const exchanged = await signIn(client, user, { rememberMe: options.rememberMe });
  return { user, client, exchanged };
}
