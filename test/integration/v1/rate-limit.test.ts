import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestContext } from '../../../api/middleware/request-context.ts';
import { v1RateLimit } from '../../../api/v1/rate-limit.ts';
import { bearer, Client, type Reply } from '../../helpers/client.ts';
import { accessTokenOf, createOwner, type TestUser } from '../../helpers/factories.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';

const fromIp = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });

function rateHeaders(reply: Reply) {
  return {
    limit: reply.headers.get('x-ratelimit-limit'),
    remaining: reply.headers.get('x-ratelimit-remaining'),
    reset: Number(reply.headers.get('x-ratelimit-reset')),
  };
}

describe('/v1 rate limit per minute (RATE_LIMIT_API=5/1m)', () => {
  let stack: Stack;
  let owner: TestUser;
  beforeAll(async () => {
    stack = await startStack({ workers: false, env: { RATE_LIMIT_API: '5/1m', TRUSTED_PROXIES: 'loopback' } });
    owner = await createOwner(stack.ctx.db);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('counts down X-RateLimit-Remaining, then answers 429 RATE_LIMIT_EXCEEDED with Retry-After', async () => {
    const token = await accessTokenOf(stack.client(), owner);
    const before = Math.floor(Date.now() / 1000);
    for (const remaining of ['4', '3', '2', '1', '0']) {
      const reply = await stack.client().get('/v1/me', bearer(token));
      expect(reply.status).toBe(200);
      expect(rateHeaders(reply)).toMatchObject({ limit: '5', remaining });
      // The window opened at the first request: after `before`, and before this reply arrived.
      expect(rateHeaders(reply).reset).toBeGreaterThanOrEqual(before + 60);
      expect(rateHeaders(reply).reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);
    }
    const refused = await stack.client().get('/v1/me', bearer(token));
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(30); // the minute window's wait, not the burst's second
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body.error.details.retry_after_seconds).toBe(retryAfter);
    expect(rateHeaders(refused)).toMatchObject({ limit: '5', remaining: '0' });
    expect(refused.body.meta.request_id).toBe(refused.headers.get('x-request-id'));

    // Another session of the same user has its own budget.
    const other = await stack.client().get('/v1/me', bearer(await accessTokenOf(stack.client(), owner)));
    expect(other.status).toBe(200);
    expect(rateHeaders(other).remaining).toBe('4');
  });

  it('counts anonymous requests per client IP, and puts the headers on 401, 404 and 422 answers', async () => {
    const unauthenticated = await stack.client().get('/v1/me', fromIp('198.51.100.1'));
    expect(unauthenticated.status).toBe(401);
    expect(rateHeaders(unauthenticated)).toMatchObject({ limit: '5', remaining: '4' });

    const notFound = await stack.client().get('/v1/no-such-thing', fromIp('198.51.100.1'));
    expect(notFound.status).toBe(404);
    expect(rateHeaders(notFound)).toMatchObject({ limit: '5', remaining: '3' });

    const invalid = await stack.client().post('/v1/no-such-thing', {}, { headers: { 'x-forwarded-for': '198.51.100.1', 'idempotency-key': 'has a space' } });
    expect(invalid.status).toBe(422);
    expect(rateHeaders(invalid)).toMatchObject({ limit: '5', remaining: '2' });

    for (let i = 0; i < 2; i += 1) await stack.client().get('/v1/me', fromIp('198.51.100.1'));
    expect((await stack.client().get('/v1/me', fromIp('198.51.100.1'))).status).toBe(429);

    const otherIp = await stack.client().get('/v1/me', fromIp('198.51.100.2'));
    expect(otherIp.status).toBe(401);
    expect(rateHeaders(otherIp).remaining).toBe('4');
  });

  it('keeps the sustained counter in Redis under the prefix, expiring with the window', async () => {
    await stack.client().get('/v1/me', fromIp('198.51.100.3'));
    const key = `${stack.ctx.config.redisPrefix}:rl:v1:{ip:198.51.100.3}:sustained`;
    expect(await stack.ctx.redis.get(key)).toBe('1');
    const ttl = await stack.ctx.redis.pttl(key);
    expect(ttl).toBeGreaterThan(30_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });
});

describe('/v1 burst limit (RATE_LIMIT_API_BURST=3/1s)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ workers: false, env: { RATE_LIMIT_API: '100/1m', RATE_LIMIT_API_BURST: '3/1s', TRUSTED_PROXIES: 'loopback' } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('refuses the fourth request within a second with Retry-After 1, without spending the minute budget', async () => {
    const ip = fromIp('192.0.2.10');
    // Sent together, so all four land in one second however loaded the machine is.
    const replies = await Promise.all(Array.from({ length: 4 }, () => stack.client().get('/v1/no-such-thing', ip)));
    expect(replies.map((reply) => reply.status).sort()).toEqual([404, 404, 404, 429]);
    expect(replies.map((reply) => reply.headers.get('x-ratelimit-remaining')).sort()).toEqual(['97', '97', '98', '99']);
    const refused = replies.find((reply) => reply.status === 429)!;
    expect(refused.headers.get('x-ratelimit-limit')).toBe('100');
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body.error.code).toBe('RATE_LIMIT_EXCEEDED');

    // Another IP is not affected; after the second has passed, the first may go on.
    expect((await stack.client().get('/v1/no-such-thing', fromIp('192.0.2.11'))).status).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const later = await stack.client().get('/v1/no-such-thing', ip);
    expect(later.status).toBe(404);
    expect(later.headers.get('x-ratelimit-remaining')).toBe('96');
  });
});

describe('/v1 rate limit without Redis', () => {
  let stack: Stack;
  let server: http.Server;
  let broken: Redis;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    broken = new Redis({ port: 1, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    const app = express();
    app.use(requestContext(stack.ctx.logger));
    app.use(v1RateLimit({ ...stack.ctx, redis: broken }));
    app.get('/ping', (_req, res) => {
      res.json({ ok: true });
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    broken?.disconnect();
    await stack?.stop();
  });

  it('lets the request through, without the headers', async () => {
    const client = new Client(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'http://panel.berth.test');
    const reply = await client.get('/ping');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-ratelimit-limit')).toBeNull();
  });
});
