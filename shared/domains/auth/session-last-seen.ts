import type { Context } from '../../context.ts';
import { Session } from '../../db/models.ts';

const LAST_SEEN_INTERVAL_SECONDS = 60;

/**
 * Records that a session authenticated a request, at most once a minute per session: a Redis guard
 * (SET NX EX) lets one request a minute write `last_seen_at`. Never fails the request: a missed
 * update only makes "last seen" a little older.
 */
export async function touchSession(store: Pick<Context, 'db' | 'redis' | 'logger' | 'config'>, sessionId: string): Promise<void> {
  try {
    const first = await store.redis.set(`${store.config.redisPrefix}:session-seen:${sessionId}`, '1', 'EX', LAST_SEEN_INTERVAL_SECONDS, 'NX');
    if (first === 'OK') await Session.query(store.db).patch({ last_seen_at: new Date() }).where({ id: sessionId }).whereNull('revoked_at');
  } catch (error) {
    store.logger.warn({ err: (error as Error).message }, 'could not record when the session was last seen');
  }
}
