import type { Knex } from 'knex';
import { locateIp, networkOf } from './risk/geo.ts';

export type LoginActivity = {
  userId: number;
  sessionId: string | null;
  eventType: 'login' | 'refresh';
  ip: string | null;
  userAgent: string | null;
  deviceFingerprint: string | null;
  geo: { city?: string | undefined; country?: string | undefined } | null;
};

/**
 * Records a login or refresh. `country`, `network` and the coordinates are derived here from the IP
 * the server saw, so they never come from the client; `geo` keeps the client's own statement.
 */
export async function recordLoginActivity(db: Knex | Knex.Transaction, activity: LoginActivity): Promise<void> {
  const location = locateIp(activity.ip);
  await db('login_activity').insert({
    user_id: activity.userId,
    session_id: activity.sessionId,
    event_type: activity.eventType,
    ip: activity.ip,
    user_agent: activity.userAgent,
    device_fingerprint: activity.deviceFingerprint,
    geo: activity.geo === null ? null : JSON.stringify(activity.geo),
    country: location?.country ?? null,
    network: networkOf(activity.ip),
    latitude: location?.latitude ?? null,
    longitude: location?.longitude ?? null,
  });
}
