import type { Redis } from 'ioredis';
import type { Knex } from 'knex';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../crypto/access-tokens.ts';
import { hashToken, randomToken } from '../../crypto/tokens.ts';
import type { Db } from '../../db/knex.ts';
import { Session } from '../../db/models.ts';
import { NotAuthenticated } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { recordActivity, type ActivityOrigin } from '../activity/record-activity.ts';

export const REFRESH_TTL_REMEMBERED_SECONDS = 7 * 24 * 3600;
export const REFRESH_TTL_SECONDS = 24 * 3600;
const ACTIVE_CACHE_SECONDS = 60;

export function refreshTtlSeconds(rememberMe: boolean): number {
  return rememberMe ? REFRESH_TTL_REMEMBERED_SECONDS : REFRESH_TTL_SECONDS;
}

export type NewSession = {
  userId: number;
  teamId: number;
  preAuthTokenId: number | null;
  rememberMe: boolean;
  ip: string | null;
  userAgent: string | null;
  deviceFingerprint: string | null;
  clientInfo: Record<string, unknown>;
  /** TOTP is on: the session is usable only after /totp/verify or /totp/backup. */
  secondFactorPending: boolean;
  /** The first refresh token's lifetime, when not `refreshTtlSeconds(rememberMe)`. */
  refreshTtlSeconds?: number | undefined;
};

/** A session is a refresh-token family; the first token is minted with it. */
export async function createSession(trx: Knex.Transaction, input: NewSession): Promise<{ session: Session; refreshToken: string }> {
  const session = await Session.query(trx)
    .insert({
      user_id: input.userId,
      team_id: input.teamId,
      pre_auth_token_id: input.preAuthTokenId,
      remember_me: input.rememberMe,
      ip: input.ip,
      user_agent: input.userAgent,
      device_fingerprint: input.deviceFingerprint,
      client_info: input.clientInfo,
      second_factor_pending: input.secondFactorPending,
    })
    .returning('*'); // the whole row in the insert's round trip (insertAndFetch reads it again)
  const refreshToken = await mintRefreshToken(trx, session, input.refreshTtlSeconds);
  return { session, refreshToken };
}

async function mintRefreshToken(trx: Knex.Transaction, session: Session, ttlSeconds = refreshTtlSeconds(session.remember_me)): Promise<string> {
  const token = randomToken(32);
  await trx('refresh_tokens').insert({
    session_id: session.id,
    token_hash: hashToken(token),
    expires_at: new Date(Date.now() + ttlSeconds * 1000),
  });
  return token;
}

type SessionStore = { db: Db; redis: Redis; logger: Logger; config: { redisPrefix: string } };

/**
 * Rotates a refresh token. The row is locked, so of two parallel refreshes one rotates and the
 * other finds a rotated token; presenting a rotated token is a replay and revokes the whole family.
 */
export async function rotateRefreshToken(
  store: SessionStore,
  presented: string,
  origin: ActivityOrigin | null = null,
): Promise<{ session: Session; refreshToken: string }> {
  const outcome = await store.db.transaction(async (trx) => {
    const row = await trx('refresh_tokens')
      .where({ token_hash: hashToken(presented) })
      .forUpdate()
      .first();
    if (!row) return { kind: 'unknown' as const };
    const session = await Session.query(trx).findById(row.session_id).forUpdate();
    if (!session || session.revoked_at) return { kind: 'revoked' as const };
    if (row.rotated_at) return { kind: 'replayed' as const, session };
    if (new Date(row.expires_at).getTime() <= Date.now()) return { kind: 'expired' as const };
    await trx('refresh_tokens').where({ id: row.id }).update({ rotated_at: trx.fn.now() });
    await Session.query(trx).patch({ last_seen_at: new Date() }).where({ id: session.id });
    return { kind: 'rotated' as const, session, refreshToken: await mintRefreshToken(trx, session) };
  });
  switch (outcome.kind) {
    case 'rotated':
      return { session: outcome.session, refreshToken: outcome.refreshToken };
    case 'replayed':
      store.logger.warn({ sessionId: outcome.session.id }, 'refresh token replayed: session family revoked');
      await revokeSessions(store, { ids: [outcome.session.id] }, 'refresh_token_reuse');
      await recordActivity(store.db, {
        teamId: outcome.session.team_id,
        actor: { userId: outcome.session.user_id, via: 'credentials' },
        action: 'auth.refresh_token_reused',
        target: { type: 'session', id: outcome.session.id },
        outcome: 'denied',
        origin,
        metadata: { session_revoked: true },
      }).catch((error: unknown) => store.logger.error({ err: (error as Error).message }, 'refresh token reuse not recorded in the activity trail'));
      throw new NotAuthenticated('Refresh token was already used; the session has been ended');
    case 'expired':
      throw new NotAuthenticated('Refresh token expired');
    default:
      throw new NotAuthenticated('Invalid refresh token');
  }
}

/** The session a refresh token belongs to, without rotating it (logout with an expired access token). */
export async function findSessionByRefreshToken(db: Db, presented: string): Promise<Session | undefined> {
  const row = await db('refresh_tokens')
    .where({ token_hash: hashToken(presented) })
    .whereNull('rotated_at')
    .first();
  if (!row) return undefined;
  const session = await Session.query(db).findById(row.session_id);
  return session && !session.revoked_at ? session : undefined;
}

function cacheKey(prefix: string, sessionId: string): string {
  return `${prefix}:session:${sessionId}`;
}

/**
 * Ends sessions: Postgres first (the truth), then a `revoked` marker in Redis that outlives any
 * access token of the session, so the next request fails without a database round trip.
 */
export async function revokeSessions(store: SessionStore, which: { ids: string[] } | { userId: number }, reason: string): Promise<string[]> {
  const query = Session.query(store.db).patch({ revoked_at: new Date(), revoked_reason: reason }).whereNull('revoked_at').returning('id');
  const revoked = ('ids' in which ? await query.whereIn('id', which.ids) : await query.where({ user_id: which.userId })) as unknown as Session[];
  const ids = revoked.map((session) => session.id);
  if (ids.length > 0) await markRevoked(store, ids);
  return ids;
}

async function markRevoked(store: SessionStore, ids: string[]): Promise<void> {
  try {
    const pipeline = store.redis.pipeline();
    for (const id of ids) pipeline.set(cacheKey(store.config.redisPrefix, id), 'revoked', 'EX', ACCESS_TOKEN_TTL_SECONDS + 60);
    await pipeline.exec();
  } catch (error) {
    // The session row is revoked; the cache forgets its `active` entry within a minute anyway.
    store.logger.error({ err: (error as Error).message }, 'could not publish session revocation to redis');
  }
}

export type SessionState = 'active' | 'second_factor_pending';

/**
 * Is the session still live, and has it passed its second factor? Checked on every authenticated
 * request: Redis answers from cache, Postgres when Redis has no entry or is down. A cache entry is
 * written only if none exists (NX), so a read racing a logout cannot resurrect the session.
 */
export async function sessionState(store: SessionStore, sessionId: string): Promise<SessionState> {
  const key = cacheKey(store.config.redisPrefix, sessionId);
  let cached: string | null = null;
  try {
    cached = await store.redis.get(key);
  } catch {
    cached = null;
  }
  if (cached === 'active' || cached === 'second_factor_pending') return cached;
  if (cached === 'revoked') throw new NotAuthenticated('Session has ended');
  const session = await Session.query(store.db).findById(sessionId).select('id', 'revoked_at', 'second_factor_pending');
  if (!session || session.revoked_at) throw new NotAuthenticated('Session has ended');
  const state: SessionState = session.second_factor_pending ? 'second_factor_pending' : 'active';
  await store.redis.set(key, state, 'EX', ACTIVE_CACHE_SECONDS, 'NX').catch(() => undefined);
  return state;
}

/** The second factor was given: the session becomes fully usable at once. */
export async function completeSecondFactor(store: SessionStore, sessionId: string): Promise<void> {
  await Session.query(store.db).patch({ second_factor_pending: false }).where({ id: sessionId }).whereNull('revoked_at');
  await store.redis.del(cacheKey(store.config.redisPrefix, sessionId)).catch(() => undefined);
}
