import { randomBytes } from 'node:crypto';
import { hashPassword } from '../../shared/crypto/passwords.ts';
import type { Knex } from 'knex';
import type { Db } from '../../shared/db/knex.ts';
import { User } from '../../shared/db/models.ts';
import { createTeamWithOwner } from '../../shared/domains/teams/teams.ts';
import type { Client } from './client.ts';

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
  await db('trusted_devices').insert({ user_id: userId, device_fingerprint: fingerprint, device_label: 'Test device', user_agent: 'vitest', first_ip: '127.0.0.1', last_ip: '127.0.0.1' });
}

/** The spec's two steps through HTTP: POST /login, then POST /session-exchange; returns the exchange reply. */
export async function signIn(client: Client, user: { email: string; password: string; teamId: number }, options: { rememberMe?: boolean } = {}) {
  const login = await client.post('/api/v1/auth/login', { email: user.email, password: user.password, remember_me: options.rememberMe ?? false });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
  const exchange = await client.post('/api/v1/auth/session-exchange', {
    pre_auth_token: login.body.pre_auth_token,
    team_id: user.teamId,
    session_info: { device_fingerprint: deviceFingerprint, ip: '203.0.113.7', user_agent: 'vitest', geo: { city: 'Lisbon', country: 'PT' } },
  });
  if (exchange.status !== 200) throw new Error(`session exchange failed: ${exchange.status} ${JSON.stringify(exchange.body)}`);
  return exchange;
}

/** Signs the user in to their team (`user.teamId`) and returns the access token to send as a bearer token. */
export async function accessTokenOf(client: Client, user: { email: string; password: string; teamId: number }): Promise<string> {
  const exchange = await signIn(client, user);
  return exchange.setCookies.find((cookie) => cookie.name === 'svc_access')!.value;
}
