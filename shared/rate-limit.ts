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

/** How many hits `subject` has in `bucket`'s current window, without counting one (0 when none). */
export type RateLimitPeek = (bucket: string, subject: string) => Promise<{ count: number; retryAfterSeconds: number }>;

export function createRateLimitPeek(redis: Redis, prefix: string): RateLimitPeek {
  return async (bucket, subject) => {
    const key = `${prefix}:rl:${bucket}:${subject}`;
    const [count, ttlMs] = await Promise.all([redis.get(key), redis.pttl(key)]);
    return { count: Number(count ?? 0), retryAfterSeconds: Math.max(1, Math.ceil(ttlMs / 1000)) };
  };
}

// Two fixed windows counted together, atomically: a request is counted in both or in neither, so a
// refused request spends no budget. Both keys share a hash tag (one Redis Cluster slot).
const consumeWithBurstScript = `
local sustained = tonumber(redis.call('GET', KEYS[1]) or '0')
local burst = tonumber(redis.call('GET', KEYS[2]) or '0')
local sustainedOver = sustained >= tonumber(ARGV[1])
local burstOver = burst >= tonumber(ARGV[3])
if not sustainedOver and not burstOver then
  sustained = redis.call('INCR', KEYS[1])
  if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
  burst = redis.call('INCR', KEYS[2])
  if redis.call('PTTL', KEYS[2]) < 0 then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
end
return {sustained, redis.call('PTTL', KEYS[1]), burst, redis.call('PTTL', KEYS[2]), sustainedOver and 1 or 0, burstOver and 1 or 0}`;

/**
 * A sustained limit with a burst limit on top (the /v1 surface: 100/min and 10/s). The result
 * describes the sustained window (the X-RateLimit-* headers); `retryAfterSeconds` is for the window
 * that refused the request.
 */
export type BurstRateLimiter = (bucket: string, subject: string, sustained: RateLimitRule, burst: RateLimitRule) => Promise<RateLimitResult>;

export function createBurstRateLimiter(redis: Redis, prefix: string): BurstRateLimiter {
  return async (bucket, subject, sustained, burst) => {
    const base = `${prefix}:rl:${bucket}:{${subject}}`;
    const reply = (await redis.eval(
      consumeWithBurstScript,
      2,
      `${base}:sustained`,
      `${base}:burst`,
      String(sustained.limit),
      String(sustained.windowMs),
      String(burst.limit),
      String(burst.windowMs),
    )) as [number, number, number, number, number, number];
    const [sustainedCount, sustainedTtlMs, , burstTtlMs, sustainedOver, burstOver] = reply;
    // A missing key (PTTL -2) means a window not yet started: it would last a whole window.
    const sustainedLeftMs = sustainedTtlMs >= 0 ? sustainedTtlMs : sustained.windowMs;
    const burstLeftMs = burstTtlMs >= 0 ? burstTtlMs : burst.windowMs;
    const waitMs = Math.max(sustainedOver === 1 ? sustainedLeftMs : 0, burstOver === 1 ? burstLeftMs : 0);
    return {
      allowed: sustainedOver === 0 && burstOver === 0,
      limit: sustained.limit,
      remaining: Math.max(0, sustained.limit - sustainedCount),
      resetAt: Math.ceil((Date.now() + sustainedLeftMs) / 1000),
      retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
    };
  };
}
