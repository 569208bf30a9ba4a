import type { Knex } from 'knex';
import type { Db } from '../../../db/knex.ts';
import { NotFound } from '../../../errors.ts';
import { revokeSessions } from '../sessions.ts';
import { deviceLabel } from './device-label.ts';

type Executor = Knex | Knex.Transaction;
type SessionStore = Parameters<typeof revokeSessions>[0];

/** A trusted device as spec part 2.5 shows it; times in ISO 8601 UTC. */
export type TrustedDevice = {
  id: number;
  device_label: string;
  user_agent: string | null;
  first_ip: string | null;
  last_ip: string | null;
  first_seen_at: string;
  last_seen_at: string;
  trusted_at: string;
  revoked_at: string | null;
};

type TrustedDeviceRow = Omit<TrustedDevice, 'first_seen_at' | 'last_seen_at' | 'trusted_at' | 'revoked_at'> & {
  user_id: number;
  device_fingerprint: string;
  first_seen_at: Date;
  last_seen_at: Date;
  trusted_at: Date;
  revoked_at: Date | null;
};

export type SeenDevice = { userId: number; fingerprint: string; ip: string | null; userAgent: string | null };

/**
 * Records a sign-in from the user's live trusted device of this fingerprint; false when there is
 * none (unknown or revoked). The UPDATE is the lookup and locks the row until the exchange commits,
 * so a revoke running at the same time either wins (the device is unknown here) or waits and then
 * sees the new session.
 */
export async function touchTrustedDevice(db: Executor, seen: SeenDevice): Promise<boolean> {
  const rows = await db('trusted_devices')
    .where({ user_id: seen.userId, device_fingerprint: seen.fingerprint })
    .whereNull('revoked_at')
    .update({ last_seen_at: db.fn.now(), ...(seen.ip ? { last_ip: seen.ip } : {}) })
    .returning('id');
  return rows.length > 0;
}

/**
 * Trusts a device after its code was approved. A revoked row of the same fingerprint stays as
 * history and a new row is written; a live one (a parallel approval) is only marked as seen.
 */
export async function trustDevice(db: Executor, seen: SeenDevice): Promise<number> {
  const result = await db.raw(
    `INSERT INTO trusted_devices (user_id, device_fingerprint, device_label, user_agent, first_ip, last_ip)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_id, device_fingerprint) WHERE revoked_at IS NULL
     DO UPDATE SET last_seen_at = now(), last_ip = COALESCE(EXCLUDED.last_ip, trusted_devices.last_ip)
     RETURNING id`,
    [seen.userId, seen.fingerprint, deviceLabel(seen.userAgent), seen.userAgent, seen.ip, seen.ip],
  );
  return (result.rows as Array<{ id: number }>)[0]!.id;
}

/** The user's devices, revoked ones included, newest first. */
export async function listTrustedDevices(db: Db, userId: number): Promise<TrustedDevice[]> {
  const rows: TrustedDeviceRow[] = await db('trusted_devices').where({ user_id: userId }).orderBy('id', 'desc');
  return rows.map((row) => ({
    id: row.id,
    device_label: row.device_label,
    user_agent: row.user_agent,
    first_ip: row.first_ip,
    last_ip: row.last_ip,
    first_seen_at: row.first_seen_at.toISOString(),
    last_seen_at: row.last_seen_at.toISOString(),
    trusted_at: row.trusted_at.toISOString(),
    revoked_at: row.revoked_at?.toISOString() ?? null,
  }));
}

/**
 * Revokes one of the user's devices and ends the user's sessions on it, so its next sign-in needs
 * a code again. Another user's device is as unknown as a missing one (404). Revoking a device that
 * is already revoked changes nothing: a newer trusted row of the same fingerprint keeps its sessions.
 */
export async function revokeTrustedDevice(store: SessionStore, userId: number, deviceId: number): Promise<void> {
  const device: TrustedDeviceRow | undefined = await store.db('trusted_devices').where({ id: deviceId, user_id: userId }).first();
  if (!device) throw new NotFound('No such device');
  const revoked = await store.db('trusted_devices').where({ id: device.id }).whereNull('revoked_at').update({ revoked_at: store.db.fn.now() }).returning('id');
  if (revoked.length === 0) return;
  const sessionIds: string[] = await store
    .db('sessions')
    .where({ user_id: userId, device_fingerprint: device.device_fingerprint })
    .whereNull('revoked_at')
    .pluck('id');
  await revokeSessions(store, { ids: sessionIds }, 'device_revoked');
}
