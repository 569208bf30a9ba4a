import type { NextFunction, Request, Response } from 'express';
import type { RateLimitRule } from '../../shared/config/config.ts';
import { RateLimited } from '../../shared/errors.ts';
import type { RateLimiter } from '../../shared/rate-limit.ts';
import { ipBucketOf } from '../../shared/ip-bucket.ts';
import { clientIp } from './request-context.ts';

/**
 * Counts the request against `bucket` for its client IP (an IPv6 client's /64: see `ipBucketOf`) and sets the X-RateLimit-* headers. While
 * Redis is down the limit is not enforced (logged): sign-in keeps working, /status reports it.
 */
export function rateLimitPerIp(rateLimit: RateLimiter, bucket: string, rule: RateLimitRule) {
  return async (req: Request, res: Response, next: NextFunction) => {
    let result;
    try {
      result = await rateLimit(bucket, ipBucketOf(clientIp(req)), rule);
    } catch (error) {
      req.log.error({ err: (error as Error).message, bucket }, 'rate limiter unavailable; request let through');
      return next();
    }
    res.setHeader('X-RateLimit-Limit', String(result.limit));
    res.setHeader('X-RateLimit-Remaining', String(result.remaining));
    res.setHeader('X-RateLimit-Reset', String(result.resetAt));
    if (!result.allowed) {
      res.setHeader('Retry-After', String(result.retryAfterSeconds));
      throw new RateLimited(result.retryAfterSeconds);
    }
    next();
  };
}
