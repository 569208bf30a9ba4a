import type { Context } from '../../context.ts';
import { hashToken } from '../../crypto/tokens.ts';
import { NotAuthenticated } from '../../errors.ts';

/** The token behind a bearer secret and the member it acts as. */
export type AuthenticatedApiToken = {
  id: number;
  teamId: number;
  userId: number;
  permissions: string[];
  expiresAt: Date | null;
};

/** `last_used_at`/`last_used_ip` are written at most once per this many seconds per token. */
export const LAST_USE_RESOLUTION_SECONDS = 60;

/**
 * The live token whose SHA-256 matches, joined to its creator's ACTIVE membership in its team. Unknown,
 * revoked or expired tokens, and those of a SUSPENDED member, all answer the same 401, so the
 * answer tells nothing about which. The caller records the use (see `recordApiTokenUse`).
 */
export async function authenticateApiToken(ctx: Pick<Context, 'db'>, secret: string): Promise<AuthenticatedApiToken> {
  const row = await ctx
    .db('api_tokens as t')
    .join('memberships as m', function joinActiveMembership() {
      this.on('m.id', '=', 't.membership_id').andOn('m.team_id', '=', 't.team_id');
    })
    .where('t.token_hash', hashToken(secret))
    .whereNull('t.revoked_at')
    .where((query) => query.whereNull('t.expires_at').orWhere('t.expires_at', '>', ctx.db.fn.now()))
    .where('m.status', 'ACTIVE')
    .first('t.id', 't.team_id', 't.permissions', 't.expires_at', 'm.user_id');
  if (!row) throw new NotAuthenticated('Invalid, expired or revoked API token');
  return { id: row.id, teamId: row.team_id, userId: row.user_id, permissions: [...row.permissions], expiresAt: row.expires_at };
}

/** When this process last asked Redis about a token's use: it asks at most once a resolution per token. */
const lastAsked = new Map<number, number>();

/**
 * Notes when and from where a token was last used, at most once a minute per token (a Redis
 * `SET NX EX` guard shared by every process), so a busy token does not write a row on every
 * request; each process asks that guard at most once a minute per token, so the common request
 * does no I/O here. Bookkeeping only: a failure is logged and the request goes on.
 */
export async function recordApiTokenUse(ctx: Pick<Context, 'db' | 'redis' | 'config' | 'logger'>, tokenId: number, ip: string | null): Promise<void> {
  const now = Date.now();
  if (now - (lastAsked.get(tokenId) ?? -Infinity) < LAST_USE_RESOLUTION_SECONDS * 1000) return;
  if (lastAsked.size >= 100_000) lastAsked.clear();
  lastAsked.set(tokenId, now);
  try {
    const first = await ctx.redis.set(`${ctx.config.redisPrefix}:api_token_used:${tokenId}`, '1', 'EX', LAST_USE_RESOLUTION_SECONDS, 'NX');
    if (first !== 'OK') return;
    await ctx.db('api_tokens').where({ id: tokenId }).update({ last_used_at: ctx.db.fn.now(), last_used_ip: ip });
  } catch (error) {
    ctx.logger.warn({ err: (error as Error).message, apiTokenId: tokenId }, 'could not record API token use');
  }
}
