import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestContext } from '../../../api/middleware/request-context.ts';
import { sendData } from '../../../api/v1/envelope.ts';
import { idempotency } from '../../../api/v1/idempotency.ts';
import { identifyPrincipal } from '../../../api/v1/principal.ts';
import { v1ErrorHandler } from '../../../api/v1/v1-errors.ts';
import { ValidationFailed } from '../../../shared/errors.ts';
import { Client } from '../../helpers/client.ts';
import { accessTokenOf, createOwner } from '../../helpers/factories.ts';
import { PANEL_URL, startStack, type Stack } from '../../helpers/stack.ts';

let stack: Stack;
let server: http.Server;
let client: Client;
let bearerToken: string;
/** Another signed-in user's access token. */
let otherBearerToken: string;
/** How many times each handler ran. */
const runs = { things: 0, slow: 0, flaky: 0, invalid: 0, deleted: 0 };
let releaseSlow: () => void = () => undefined;
let failFlaky = true;

/** A tiny /v1-like app over the real Redis: the middleware in front of handlers that count their runs. */
beforeAll(async () => {
  stack = await startStack({ workers: false });
  const owner = await createOwner(stack.ctx.db);
  bearerToken = await accessTokenOf(stack.client(), owner);
  otherBearerToken = await accessTokenOf(stack.client(), await createOwner(stack.ctx.db));
  const app = express();
  app.set('trust proxy', 'loopback');
  app.use(requestContext(stack.ctx.logger));
  app.use(express.json());
  app.use(identifyPrincipal(stack.ctx), idempotency(stack.ctx));
  app.post('/things', (req, res) => {
    runs.things += 1;
    res.setHeader('Location', `/things/${runs.things}`);
    sendData(req, res, { id: runs.things, name: req.body.name }, 201);
  });
  app.post('/slow', async (req, res) => {
    runs.slow += 1;
    await new Promise<void>((resolve) => {
      releaseSlow = resolve;
    });
    sendData(req, res, { run: runs.slow }, 201);
  });
  app.post('/flaky', (req, res) => {
    runs.flaky += 1;
    if (failFlaky) throw new Error('database went away');
    sendData(req, res, { run: runs.flaky }, 201);
  });
  app.post('/invalid', () => {
    runs.invalid += 1;
    throw ValidationFailed.field('name', 'is required');
  });
  app.delete('/things/1', (_req, res) => {
    runs.deleted += 1;
    res.status(204).end();
  });
  app.use(v1ErrorHandler);
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  client = new Client(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, PANEL_URL);
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await stack?.stop();
});

let keyCounter = 0;
const newKey = () => `key-${Date.now()}-${(keyCounter += 1)}`;
const withKey = (key: string, headers: Record<string, string> = {}) => ({ headers: { 'idempotency-key': key, ...headers } });

describe('Idempotency-Key', () => {
  it('replays the first answer to a repeat with the same body, without running the handler again', async () => {
    const key = newKey();
    const before = runs.things;
    const first = await client.post('/things', { name: 'blog', plan: { tier: 'pro', region: 'eu' } }, withKey(key));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // The same body with its keys in another order is the same request.
    const repeat = await client.post('/things', { plan: { region: 'eu', tier: 'pro' }, name: 'blog' }, withKey(key));
    expect(runs.things).toBe(before + 1);
    expect(repeat.status).toBe(201);
    expect(repeat.body).toEqual(first.body);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(repeat.headers.get('location')).toBe(first.headers.get('location'));
    expect(repeat.headers.get('content-type')).toMatch(/^application\/json/);
    expect(repeat.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
  });

  it('answers 409 CONFLICT to the same key with a different body', async () => {
    const key = newKey();
    await client.post('/things', { name: 'one' }, withKey(key));
    const before = runs.things;
    const reused = await client.post('/things', { name: 'two' }, withKey(key));
    expect(reused.status).toBe(409);
    expect(reused.body.error).toMatchObject({ code: 'CONFLICT', details: { reason: 'fingerprint_mismatch' } });
    expect(reused.body.meta.request_id).toBe(reused.headers.get('x-request-id'));
    expect(runs.things).toBe(before);
  });

  it('answers 409 CONFLICT (in_progress) while the first request is in flight, then replays it', async () => {
    const key = newKey();
    const first = client.post('/slow', { n: 1 }, withKey(key));
    await expect.poll(() => runs.slow).toBe(1);
    const during = await client.post('/slow', { n: 1 }, withKey(key));
    expect(during.status).toBe(409);
    expect(during.body.error).toMatchObject({ code: 'CONFLICT', details: { reason: 'in_progress' } });
    releaseSlow();
    expect((await first).status).toBe(201);
    const after = await client.post('/slow', { n: 1 }, withKey(key));
    expect(after.status).toBe(201);
    expect(after.headers.get('idempotent-replayed')).toBe('true');
    expect(runs.slow).toBe(1);
  });

  it('does not keep a 5xx answer: the retry runs', async () => {
    const key = newKey();
    failFlaky = true;
    const failed = await client.post('/flaky', { n: 1 }, withKey(key));
    expect(failed.status).toBe(500);
    expect(failed.body.error.code).toBe('INTERNAL_ERROR');
    failFlaky = false;
    const retried = await client.post('/flaky', { n: 1 }, withKey(key));
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(runs.flaky).toBe(2);
    expect((await client.post('/flaky', { n: 1 }, withKey(key))).headers.get('idempotent-replayed')).toBe('true');
    expect(runs.flaky).toBe(2);
  });

  it('keeps and replays a 4xx answer and an answer without a body', async () => {
    const key = newKey();
    const first = await client.post('/invalid', { n: 1 }, withKey(key));
    const repeat = await client.post('/invalid', { n: 1 }, withKey(key));
    expect([first.status, repeat.status]).toEqual([422, 422]);
    expect(repeat.body).toEqual(first.body);
    expect(runs.invalid).toBe(1);

    const deleteKey = newKey();
    const deleted = await client.request('DELETE', '/things/1', withKey(deleteKey));
    const again = await client.request('DELETE', '/things/1', withKey(deleteKey));
    expect([deleted.status, again.status]).toEqual([204, 204]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(runs.deleted).toBe(1);
  });

  it('scopes a key to the caller and the path', async () => {
    const key = newKey();
    const before = runs.things;
    await client.post('/things', { name: 'x' }, withKey(key, { 'x-forwarded-for': '198.51.100.20' }));
    const otherIp = await client.post('/things', { name: 'x' }, withKey(key, { 'x-forwarded-for': '198.51.100.21' }));
    const bearer = await client.post('/things', { name: 'x' }, withKey(key, { authorization: `Bearer ${bearerToken}` }));
    // another signed-in caller, from the same address, with the same key and body: its own request, not the first's answer
    const otherCaller = await client.post('/things', { name: 'x' }, withKey(key, { authorization: `Bearer ${otherBearerToken}` }));
    const otherPath = await client.post('/invalid', { name: 'x' }, withKey(key, { 'x-forwarded-for': '198.51.100.20' }));
    expect(runs.things).toBe(before + 4);
    for (const reply of [otherIp, bearer, otherCaller, otherPath]) expect(reply.headers.get('idempotent-replayed')).toBeNull();
    expect(otherCaller.status).toBe(201);
    expect(otherCaller.body.data.id).not.toBe(bearer.body.data.id);
    const sameBearer = await client.post('/things', { name: 'x' }, withKey(key, { authorization: `Bearer ${bearerToken}` }));
    expect(sameBearer.headers.get('idempotent-replayed')).toBe('true');
    expect(sameBearer.body).toEqual(bearer.body);
    const sameOtherCaller = await client.post('/things', { name: 'x' }, withKey(key, { authorization: `Bearer ${otherBearerToken}` }));
    expect(sameOtherCaller.headers.get('idempotent-replayed')).toBe('true');
    expect(sameOtherCaller.body).toEqual(otherCaller.body);
    expect(runs.things).toBe(before + 4);
  });

  it('runs every request without the header', async () => {
    const before = runs.things;
    await client.post('/things', { name: 'a' });
    await client.post('/things', { name: 'a' });
    expect(runs.things).toBe(before + 2);
  });

  it.each([
    ['empty', ''],
    ['with a space', 'has space'],
    ['longer than 255 characters', 'k'.repeat(256)],
  ])('refuses a key that is %s with 422 VALIDATION_ERROR, without running the handler', async (_label, key) => {
    const before = runs.things;
    const reply = await client.post('/things', { name: 'a' }, withKey(key));
    expect(reply.status).toBe(422);
    expect(reply.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ field: 'Idempotency-Key' }] } });
    expect(runs.things).toBe(before);
  });

  it('accepts a key of 255 visible characters and keeps the record 24 hours under the prefix', async () => {
    const key = '~'.repeat(255);
    expect((await client.post('/things', { name: 'long' }, withKey(key))).status).toBe(201);
    const keys = await stack.ctx.redis.keys(`${stack.ctx.config.redisPrefix}:idem:*`);
    expect(keys.length).toBeGreaterThan(0);
    const ttls = await Promise.all(keys.map((name) => stack.ctx.redis.pttl(name)));
    expect(Math.max(...ttls)).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(Math.max(...ttls)).toBeLessThanOrEqual(24 * 3600_000);
  });
});

describe('Idempotency-Key on the real /v1 surface', () => {
  it('replays even a 404 answer, marked as replayed', async () => {
    const key = newKey();
    const first = await stack.client().post('/v1/no-such-thing', { a: 1 }, withKey(key));
    const repeat = await stack.client().post('/v1/no-such-thing', { a: 1 }, withKey(key));
    expect([first.status, repeat.status]).toEqual([404, 404]);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(repeat.headers.get('x-ratelimit-limit')).toBe('1000');
  });
});
