import type { Redis } from 'ioredis';
import type { RateLimitRule } from './config/config.ts';

export type RateLimitResult = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the window ends, Unix seconds (the X-RateLimit-Reset header). */
  resetAt: number;
  retryAfterSeconds: number;
};

// A fixed window: the first hit creates the counter with the window as its lifetime.
const consumeScript = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

export type RateLimiter = (bucket: string, subject: string, rule: RateLimitRule) => Promise<RateLimitResult>;

export function createRateLimiter(redis: Redis, prefix: string): RateLimiter {
  return async (bucket, subject, rule) => {
    const key = `${prefix}:rl:${bucket}:${subject}`;
    const [count, ttlMs] = (await redis.eval(consumeScript, 1, key, String(rule.windowMs))) as [number, number];
    const retryAfterSeconds = Math.max(1, Math.ceil(ttlMs / 1000));
    return {
      allowed: count <= rule.limit,
      limit: rule.limit,
      remaining: Math.max(0, rule.limit - count),
      resetAt: Math.ceil((Date.now() + ttlMs) / 1000),
      retryAfterSeconds,
    };
  };
}
