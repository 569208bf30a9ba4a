import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatchedBurstRateLimiter, type BatchedBurstRateLimiter } from '../../../shared/rate-limit.ts';
import { testRedisUrl } from '../../helpers/services.ts';

/**
 * The /v1 limiter counts in each process and syncs with Redis in batches (shared/rate-limit.ts).
 * Two limiters on one Redis prefix stand for two API processes.
 */
const sustained = { limit: 50, windowMs: 60_000 };
const burst = { limit: 1_000, windowMs: 60_000 };
let redis: Redis;
let prefix: string;
const limiters: BatchedBurstRateLimiter[] = [];

beforeAll(() => {
  redis = new Redis(testRedisUrl);
});
afterAll(async () => {
  for (const limiter of limiters) limiter.close();
  redis.disconnect();
});

function limiter(): BatchedBurstRateLimiter {
  const made = createBatchedBurstRateLimiter(redis, prefix, { syncIntervalMs: 20 });
  limiters.push(made);
  return made;
}

async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('the batched /v1 rate limiter', () => {
  beforeAll(() => {
    prefix = `test-rl-${randomBytes(6).toString('hex')}`;
  });

  it('decides alone after the first request of a window, exactly, and sends its count to Redis', async () => {
    const one = limiter();
    const answers = [];
    for (let i = 0; i < 52; i += 1) answers.push(await one('v1', 'alone', sustained, burst));
    expect(answers.filter((answer) => answer.allowed)).toHaveLength(50);
    expect(answers.slice(0, 50).map((answer) => answer.remaining)).toEqual(Array.from({ length: 50 }, (_, i) => 49 - i));
    expect(answers[50]).toMatchObject({ allowed: false, remaining: 0, limit: 50 });
    expect(answers[50]!.retryAfterSeconds).toBeGreaterThan(30);
    // a refused request spends nothing: Redis ends at the limit, not above it
    await until(async () => (await redis.get(`${prefix}:rl:v1:{alone}:sustained`)) === '50');
  });

  it("lets a second process see the first one's count once it has synced, so together they admit the limit", async () => {
    const first = limiter();
    const second = limiter();
    for (let i = 0; i < 30; i += 1) expect((await first('v1', 'shared', sustained, burst)).allowed).toBe(true);
    await until(async () => (await redis.get(`${prefix}:rl:v1:{shared}:sustained`)) === '30');

    const seen = await second('v1', 'shared', sustained, burst);
    expect(seen).toMatchObject({ allowed: true, remaining: 19 });
    let admitted = 1;
    while ((await second('v1', 'shared', sustained, burst)).allowed) admitted += 1;
    expect(admitted).toBe(20);

    // and the first learns the second's count at its next sync
    await until(async () => (await redis.get(`${prefix}:rl:v1:{shared}:sustained`)) === '50');
    await until(async () => !(await first('v1', 'shared', sustained, burst)).allowed);
  });
});
