import type { NextFunction, Request, Response } from 'express';
import type { Context } from '../../shared/context.ts';
import { RateLimited } from '../../shared/errors.ts';
import { createBatchedBurstRateLimiter } from '../../shared/rate-limit.ts';
import { rateLimitSubject } from './principal.ts';

/**
 * Counts every /v1 request against its subject (the session when known, else the client IP):
 * RATE_LIMIT_API per window with a burst of RATE_LIMIT_API_BURST, counted in this process and synced
 * with Redis in batches (shared/rate-limit.ts: createBatchedBurstRateLimiter, and its tolerance across
 * processes), so most requests make no Redis round trip. The
 * X-RateLimit-* headers describe the sustained limit and are set before anything can fail, so 401,
 * 404 and 422 answers carry them too. While Redis is down the limit is not enforced (logged).
 */
export function v1RateLimit(ctx: Context) {
  const consume = createBatchedBurstRateLimiter(ctx.redis, ctx.config.redisPrefix);
  const { api, apiBurst } = ctx.config.rateLimits;
  return async (req: Request, res: Response, next: NextFunction) => {
    let result;
    try {
      result = await consume('v1', rateLimitSubject(req, res), api, apiBurst);
    } catch (error) {
      req.log.error({ err: (error as Error).message, bucket: 'v1' }, 'rate limiter unavailable; request let through');
      return next();
    }
    res.setHeader('X-RateLimit-Limit', String(result.limit));
    res.setHeader('X-RateLimit-Remaining', String(result.remaining));
    res.setHeader('X-RateLimit-Reset', String(result.resetAt));
    if (!result.allowed) throw new RateLimited(result.retryAfterSeconds);
    next();
  };
}
