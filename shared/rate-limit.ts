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

// The batched limiter's script: first adds what a process admitted locally since its last sync
// (ARGV[5], ARGV[6]: already decided, counted unconditionally), then, when ARGV[7] is 1, decides this
// request as consumeWithBurstScript does. Answers the counts and time left of both windows.
const syncWithBurstScript = `
local function add(key, by, windowMs)
  if by > 0 then
    redis.call('INCRBY', key, by)
    if redis.call('PTTL', key) < 0 then redis.call('PEXPIRE', key, windowMs) end
  end
end
add(KEYS[1], tonumber(ARGV[5]), ARGV[2])
add(KEYS[2], tonumber(ARGV[6]), ARGV[4])
local sustained = tonumber(redis.call('GET', KEYS[1]) or '0')
local burst = tonumber(redis.call('GET', KEYS[2]) or '0')
local sustainedOver = 0
local burstOver = 0
if ARGV[7] == '1' then
  if sustained >= tonumber(ARGV[1]) then sustainedOver = 1 end
  if burst >= tonumber(ARGV[3]) then burstOver = 1 end
  if sustainedOver == 0 and burstOver == 0 then
    sustained = redis.call('INCR', KEYS[1])
    if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
    burst = redis.call('INCR', KEYS[2])
    if redis.call('PTTL', KEYS[2]) < 0 then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
  end
end
return {sustained, redis.call('PTTL', KEYS[1]), burst, redis.call('PTTL', KEYS[2]), sustainedOver, burstOver}`;

/** How often a process sends what it admitted locally and learns what the others did. */
export const RATE_LIMIT_SYNC_INTERVAL_MS = 100;

/** One window of one subject as this process knows it: the total count (Redis's at the last sync plus what was admitted here since). */
type LocalWindow = { count: number; pending: number; endsAt: number };
type LocalSubject = { keys: [string, string]; sustained: LocalWindow; burst: LocalWindow; sustainedRule: RateLimitRule; burstRule: RateLimitRule };

export type BatchedBurstRateLimiter = BurstRateLimiter & { close(): void };

/**
 * The burst limiter of `createBurstRateLimiter`, without a Redis round trip on most requests. A
 * subject's first request of a window asks Redis (as before: every process sees it, and a refused
 * request spends nothing); until that window ends, this process decides alone from the count it
 * learnt plus what it admitted since, and every RATE_LIMIT_SYNC_INTERVAL_MS sends what it admitted
 * (one pipeline for every subject) and learns the total of every process. Alone, a process is exact;
 * with others on the same prefix it may admit, beyond the limit, what the others admitted in the
 * last sync interval. While Redis is down, the first request of a window fails (the caller lets it
 * through) and local counts go on.
 */
export function createBatchedBurstRateLimiter(redis: Redis, prefix: string, options: { syncIntervalMs?: number } = {}): BatchedBurstRateLimiter {
  const subjects = new Map<string, LocalSubject>();
  const syncIntervalMs = options.syncIntervalMs ?? RATE_LIMIT_SYNC_INTERVAL_MS;
  let timer: NodeJS.Timeout | undefined;

  const evalSync = (
    subject: LocalSubject,
    pendingSustained: number,
    pendingBurst: number,
    decide: boolean,
    on: Pick<Redis, 'eval'> = redis,
  ): Promise<unknown> =>
    on.eval(
      syncWithBurstScript,
      2,
      subject.keys[0],
      subject.keys[1],
      String(subject.sustainedRule.limit),
      String(subject.sustainedRule.windowMs),
      String(subject.burstRule.limit),
      String(subject.burstRule.windowMs),
      String(pendingSustained),
      String(pendingBurst),
      decide ? '1' : '0',
    );

  /** Takes Redis's answer into the local view: the known total is Redis's plus what was admitted here since. */
  const learn = (subject: LocalSubject, reply: [number, number, number, number, number, number], now: number) => {
    const [sustainedCount, sustainedTtlMs, burstCount, burstTtlMs] = reply;
    const merge = (window: LocalWindow, count: number, ttlMs: number, windowMs: number) => {
      const live = window.endsAt > now;
      window.count = live ? Math.max(window.count, count + window.pending) : count + window.pending;
      window.endsAt = now + (ttlMs >= 0 ? ttlMs : windowMs);
    };
    merge(subject.sustained, sustainedCount, sustainedTtlMs, subject.sustainedRule.windowMs);
    merge(subject.burst, burstCount, burstTtlMs, subject.burstRule.windowMs);
  };

  const resultOf = (subject: LocalSubject, sustainedOver: boolean, burstOver: boolean, now: number): RateLimitResult => {
    const waitMs = Math.max(sustainedOver ? subject.sustained.endsAt - now : 0, burstOver ? subject.burst.endsAt - now : 0);
    return {
      allowed: !sustainedOver && !burstOver,
      limit: subject.sustainedRule.limit,
      remaining: Math.max(0, subject.sustainedRule.limit - subject.sustained.count),
      resetAt: Math.ceil(subject.sustained.endsAt / 1000),
      retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
    };
  };

  /** Takes the pending counts of the live windows (those of ended windows belonged to them and are dropped). */
  const takePending = (subject: LocalSubject, now: number): [number, number] => {
    const sustained = subject.sustained.endsAt > now ? subject.sustained.pending : 0;
    const burst = subject.burst.endsAt > now ? subject.burst.pending : 0;
    subject.sustained.pending = 0;
    subject.burst.pending = 0;
    return [sustained, burst];
  };

  async function sync(): Promise<void> {
    const now = Date.now();
    const batch: Array<{ subject: LocalSubject; taken: [number, number] }> = [];
    for (const [key, subject] of subjects) {
      if (subject.sustained.pending > 0 || subject.burst.pending > 0) batch.push({ subject, taken: takePending(subject, now) });
      else if (subject.sustained.endsAt <= now && subject.burst.endsAt <= now) subjects.delete(key);
    }
    if (subjects.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
    const sending = batch.filter(({ taken }) => taken[0] > 0 || taken[1] > 0);
    if (sending.length === 0) return;
    const pipeline = redis.pipeline();
    // queued on the pipeline (its own promise is the pipeline's exec)
    for (const { subject, taken } of sending) void evalSync(subject, taken[0], taken[1], false, pipeline as unknown as Pick<Redis, 'eval'>);
    try {
      const replies = (await pipeline.exec()) ?? [];
      const at = Date.now();
      replies.forEach(([error, reply], index) => {
        const { subject, taken } = sending[index]!;
        if (error) {
          subject.sustained.pending += taken[0];
          subject.burst.pending += taken[1];
        } else learn(subject, reply as [number, number, number, number, number, number], at);
      });
    } catch {
      // Redis is down: what was admitted here is sent with the next sync.
      for (const { subject, taken } of sending) {
        subject.sustained.pending += taken[0];
        subject.burst.pending += taken[1];
      }
    }
  }

  const consume = async (bucket: string, subjectName: string, sustainedRule: RateLimitRule, burstRule: RateLimitRule): Promise<RateLimitResult> => {
    const base = `${prefix}:rl:${bucket}:{${subjectName}}`;
    const key = `${base}|${sustainedRule.limit}/${sustainedRule.windowMs}|${burstRule.limit}/${burstRule.windowMs}`;
    const now = Date.now();
    let subject = subjects.get(key);
    if (!subject || subject.sustained.endsAt <= now || subject.burst.endsAt <= now) {
      subject ??= {
        keys: [`${base}:sustained`, `${base}:burst`],
        sustained: { count: 0, pending: 0, endsAt: 0 },
        burst: { count: 0, pending: 0, endsAt: 0 },
        sustainedRule,
        burstRule,
      };
      const taken = takePending(subject, now);
      let reply: [number, number, number, number, number, number];
      try {
        reply = (await evalSync(subject, taken[0], taken[1], true)) as typeof reply;
      } catch (error) {
        subject.sustained.pending += taken[0];
        subject.burst.pending += taken[1];
        throw error;
      }
      const at = Date.now();
      learn(subject, reply, at);
      subjects.set(key, subject);
      timer ??= setInterval(() => void sync(), syncIntervalMs).unref();
      return resultOf(subject, reply[4] === 1, reply[5] === 1, at);
    }
    const sustainedOver = subject.sustained.count >= sustainedRule.limit;
    const burstOver = subject.burst.count >= burstRule.limit;
    if (!sustainedOver && !burstOver) {
      subject.sustained.count += 1;
      subject.sustained.pending += 1;
      subject.burst.count += 1;
      subject.burst.pending += 1;
    }
    return resultOf(subject, sustainedOver, burstOver, now);
  };
  return Object.assign(consume, {
    close() {
      clearInterval(timer);
      timer = undefined;
    },
  });
}
