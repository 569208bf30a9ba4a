import type { Knex } from 'knex';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/knex.ts';
import { NotFound } from '../../errors.ts';
import { deviceLabel } from './devices/device-label.ts';
import { revokeSessions } from './sessions.ts';

export type OwnSession = {
  id: string;
  team_id: number;
  team_name: string;
  device_label: string;
  user_agent: string | null;
  ip: string | null;
  created_at: Date;
  last_seen_at: Date;
  second_factor_pending: boolean;
  current: boolean;
};

type SessionRow = Omit<OwnSession, 'device_label' | 'current'>;

type SessionStore = Pick<Context, 'db' | 'redis' | 'logger' | 'config'>;

/**
 * A user's live sessions, in every team: not revoked, and holding a refresh token neither rotated
 * nor expired (as the concurrent-login gate counts them). Sessions still waiting for their second
 * factor are included, so a sign-in that got past the password can be seen and ended.
 */
function liveSessionsOf(db: Db, userId: number): Knex.QueryBuilder {
  return db('sessions as s')
    .where('s.user_id', userId)
    .whereNull('s.revoked_at')
    .whereExists((refresh) =>
      refresh.select(db.raw('1')).from('refresh_tokens as r').whereRaw('r.session_id = s.id').whereNull('r.rotated_at').where('r.expires_at', '>', db.fn.now()),
    );
}

/** One page of the user's live sessions, most recently seen first; `current` marks `currentSessionId`. */
export async function listOwnSessions(
  db: Db,
  userId: number,
  currentSessionId: string | null,
  page: { page: number; pageSize: number },
): Promise<{ items: OwnSession[]; total: number }> {
  const counted: { count: string | number } | undefined = await liveSessionsOf(db, userId).count({ count: '*' }).first();
  const rows: SessionRow[] = await liveSessionsOf(db, userId)
    .join('teams as t', 't.id', 's.team_id')
    .orderBy([
      { column: 's.last_seen_at', order: 'desc' },
      { column: 's.created_at', order: 'desc' },
      { column: 's.id', order: 'asc' },
    ])
    .offset((page.page - 1) * page.pageSize)
    .limit(page.pageSize)
    .select('s.id', 's.team_id', 't.name as team_name', 's.user_agent', 's.ip', 's.created_at', 's.last_seen_at', 's.second_factor_pending');
  const items = rows.map((row) => ({
    id: row.id,
    team_id: row.team_id,
    team_name: row.team_name,
    device_label: deviceLabel(row.user_agent),
    user_agent: row.user_agent,
    ip: row.ip,
    created_at: row.created_at,
    last_seen_at: row.last_seen_at,
    second_factor_pending: row.second_factor_pending,
    current: row.id === currentSessionId,
  }));
  return { items, total: Number(counted?.count ?? 0) };
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Ends one of the user's own live sessions at once (its access token fails on its next request).
 * Another user's session, an ended one, or an id that names nothing is "not found".
 */
export async function revokeOwnSession(store: SessionStore, userId: number, sessionId: string): Promise<{ id: string; revoked_at: Date }> {
  const live = uuidPattern.test(sessionId) ? await liveSessionsOf(store.db, userId).where('s.id', sessionId).first('s.id') : undefined;
  const [revoked] = live ? await revokeSessions(store, { ids: [sessionId] }, 'revoked_by_user') : [];
  if (!revoked) throw new NotFound('Session not found');
  const row = await store.db('sessions').where({ id: revoked }).first('revoked_at');
  return { id: revoked, revoked_at: row.revoked_at };
}

/**
 * Ends every session of the user that is not revoked yet, except `keepSessionId` (the caller's own;
 * null for an API-token caller, which has none, so all end). Answers how many ended.
 */
export async function revokeOtherSessions(store: SessionStore, userId: number, keepSessionId: string | null): Promise<number> {
  const query = store.db('sessions').where({ user_id: userId }).whereNull('revoked_at');
  if (keepSessionId !== null) query.whereNot({ id: keepSessionId });
  const ids = (await query.pluck('id')) as string[];
  if (ids.length === 0) return 0;
  return (await revokeSessions(store, { ids }, 'revoked_others_by_user')).length;
}
