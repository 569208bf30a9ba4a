import type { Context } from '../../context.ts';
import { Session } from '../../db/models.ts';

const LAST_SEEN_INTERVAL_SECONDS = 60;

/** When this process last asked Redis about a session: it asks at most once an interval per session. */
const lastAsked = new Map<string, number>();

/**
 * Records that a session authenticated a request, at most once a minute per session: a Redis guard
 * (SET NX EX, shared by every process) lets one request a minute write `last_seen_at`, and each
 * process asks it at most once a minute per session, so the common request does no I/O here. Never
 * fails the request: a missed update only makes "last seen" a little older.
 */
export async function touchSession(store: Pick<Context, 'db' | 'redis' | 'logger' | 'config'>, sessionId: string): Promise<void> {
  const now = Date.now();
  if (now - (lastAsked.get(sessionId) ?? -Infinity) < LAST_SEEN_INTERVAL_SECONDS * 1000) return;
  if (lastAsked.size >= 100_000) lastAsked.clear();
  lastAsked.set(sessionId, now);
  try {
    const first = await store.redis.set(`${store.config.redisPrefix}:session-seen:${sessionId}`, '1', 'EX', LAST_SEEN_INTERVAL_SECONDS, 'NX');
    if (first === 'OK') await Session.query(store.db).patch({ last_seen_at: new Date() }).where({ id: sessionId }).whereNull('revoked_at');
  } catch (error) {
    store.logger.warn({ err: (error as Error).message }, 'could not record when the session was last seen');
  }
}
