import type { Knex } from 'knex';

export type LoginActivity = {
  userId: number;
  sessionId: string | null;
  eventType: 'login' | 'refresh';
  ip: string | null;
  userAgent: string | null;
  deviceFingerprint: string | null;
  geo: { city?: string | undefined; country?: string | undefined } | null;
};

export async function recordLoginActivity(db: Knex | Knex.Transaction, activity: LoginActivity): Promise<void> {
  await db('login_activity').insert({
    user_id: activity.userId,
    session_id: activity.sessionId,
    event_type: activity.eventType,
    ip: activity.ip,
    user_agent: activity.userAgent,
    device_fingerprint: activity.deviceFingerprint,
    geo: activity.geo === null ? null : JSON.stringify(activity.geo),
  });
}
