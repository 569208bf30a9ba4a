import type { Db } from '../../../db/knex.ts';
import { locateIp } from '../risk/geo.ts';
import { concurrentLoginToken } from './request-token.ts';

export type PendingConcurrentLogin = {
  token: string;
  team_id: number;
  ip: string | null;
  country: string | null;
  user_agent: string | null;
  device_fingerprint: string | null;
  created_at: string;
  expires_at: string;
};

/** The user's sign-ins waiting for approval, newest first: what a live session polls to be notified. */
export async function pendingConcurrentLogins(db: Db, secretKey: Buffer, userId: number): Promise<PendingConcurrentLogin[]> {
  const rows = await db('concurrent_login_requests as c')
    .join('pre_auth_tokens as p', 'p.id', 'c.pre_auth_token_id')
    .where({ 'c.user_id': userId, 'c.status': 'pending' })
    .where('c.expires_at', '>', db.fn.now())
    .orderBy('c.created_at', 'desc')
    .select('p.token_hash', 'c.team_id', 'c.ip', 'c.user_agent', 'c.device_fingerprint', 'c.created_at', 'c.expires_at');
  return rows.map((row) => ({
    token: concurrentLoginToken(secretKey, row.token_hash),
    team_id: row.team_id,
    ip: row.ip,
    country: locateIp(row.ip)?.country ?? null,
    user_agent: row.user_agent,
    device_fingerprint: row.device_fingerprint,
    created_at: new Date(row.created_at).toISOString(),
    expires_at: new Date(row.expires_at).toISOString(),
  }));
}
