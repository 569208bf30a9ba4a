import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Operation } from '../../../shared/db/models.ts';
import { operationKind } from '../../../shared/domains/operations/operation-kind.ts';
import { insertOperations } from '../../../shared/domains/operations/operations.ts';
import { enqueue } from '../../../shared/jobs/queues.ts';
import { runnableKind } from '../../../workers/operations/runbook.ts';
import { bearer } from '../../helpers/client.ts';
import { EventStream, type StreamEvent } from '../../helpers/event-stream.ts';
import { accessTokenOf, createOwner, signedInClient, unique, type TestUser } from '../../helpers/factories.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { until } from '../../helpers/until.ts';

const gates = new Map<string, () => void>();
const gateOpened = new Map<string, Promise<void>>();
function gate(name: string): void {
  gateOpened.set(name, new Promise<void>((resolve) => gates.set(name, resolve)));
}

/** Two steps that log; the first waits on a gate when told (so a test can act while it runs). */
const streamedKind = operationKind({
  kind: 'test.streamed',
  input: z.object({ tag: z.string(), waitOn: z.string().optional() }),
  steps: [{ name: 'fetch' }, { name: 'apply' }],
  deadlineSeconds: 30 * 60,
});
const streamed = runnableKind(streamedKind, {
  steps: {
    async fetch({ input, log }) {
      await log(`fetching ${input.tag}`, 'stdout');
      if (input.waitOn) await gateOpened.get(input.waitOn);
      await log(`fetched ${input.tag}`, 'stdout');
      return null;
    },
    async apply({ input, log }) {
      await log(`applied ${input.tag}`);
      return null;
    },
  },
});

/** `stack` runs the workers; `other` is a second API process on the same database, without workers. */
let stack: Stack;
let other: Stack;
let owner: TestUser;
let token: string;
let stranger: TestUser;
let strangerToken: string;
beforeAll(async () => {
  stack = await startStack({ operationKinds: [streamed], env: { OPERATION_SWEEP_INTERVAL_MS: '600000' } });
  other = await startStack({ workers: false });
  owner = await createOwner(stack.ctx.db);
  stranger = await createOwner(stack.ctx.db);
  token = await accessTokenOf(stack.client(), owner);
  strangerToken = await accessTokenOf(stack.client(), stranger);
});
afterAll(async () => {
  for (const open of gates.values()) open();
  await other?.stop();
  await stack?.stop();
});

/** An operation of the test kind in `user`'s team; handed to `on`'s queue unless `dispatch` is false. */
async function start(user: TestUser, input: { tag: string; waitOn?: string }, options: { on?: Stack; dispatch?: boolean } = {}): Promise<Operation> {
  const on = options.on ?? stack;
  const [operation] = await on.ctx.db.transaction((trx) =>
    insertOperations(trx, streamedKind, [{ input, start: { teamId: user.teamId, target: { type: 'thing', id: 7 } } }]),
  );
  if (options.dispatch !== false) await enqueue(on.ctx.queues, 'operation.run', { operationId: operation!.id }, { jobId: operation!.id });
  return operation!;
}

const eventsUrl = (on: Stack, id: string, query = '') => `${on.api.url}/v1/operations/${id}/events${query}`;
const ids = (events: StreamEvent[]) => events.map((event) => Number(event.id));

async function storedIds(operationId: string, afterId = 0): Promise<number[]> {
  const rows = await stack.ctx.db('operation_events').where({ operation_id: operationId }).where('id', '>', afterId).orderBy('id').select('id');
  return rows.map((row) => Number(row.id));
}

async function statusOf(id: string): Promise<string> {
  const row = await stack.ctx.db('operations').where({ id }).first('status');
  return row.status as string;
}

describe('GET /v1/operations/{id}/events', () => {
  it('streams the operation, its steps and its log lines in order, then `end`, and closes', async () => {
    const operation = await start(owner, { tag: unique('run') });
    const stream = await EventStream.open(eventsUrl(stack, operation.id), bearer(token).headers);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('cache-control')).toBe('no-cache');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');

    const events = await stream.until((event) => event.event === 'end');
    expect(await stream.next()).toBeUndefined(); // the server closed it
    expect(stream.retry).toBe(2000);
    const end = events.pop()!;
    expect(end).toMatchObject({ id: undefined, data: { operation_id: operation.id, status: 'succeeded' } });
    // Every stored event of the operation, once, in id order.
    expect(ids(events)).toEqual(await storedIds(operation.id));

    const story = events.map((event) =>
      event.event === 'operation'
        ? `operation:${event.data.status}@${event.data.progress}`
        : event.event === 'step'
          ? `step:${event.data.name}:${event.data.status}`
          : `log:${event.data.line}`,
    );
    const tag = operation.input.tag as string;
    const order = [
      'operation:queued@0',
      'operation:running@0',
      'step:fetch:running',
      `log:fetching ${tag}`,
      `log:fetched ${tag}`,
      'step:fetch:succeeded',
      'step:apply:running',
      `log:applied ${tag}`,
      'step:apply:succeeded',
      'operation:succeeded@100',
    ];
    expect(story.filter((line) => order.includes(line))).toEqual(order);
    expect(story.at(-1)).toBe('operation:succeeded@100');
    // Between them, the progress of the running operation, rising.
    const progress = events.filter((event) => event.event === 'operation').map((event) => event.data.progress as number);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const last = events.at(-1)!.data;
    expect(last).toMatchObject({
      id: operation.id,
      kind: 'test.streamed',
      status: 'succeeded',
      progress: 100,
      target: { type: 'thing', id: '7' },
      error: null,
    });
    expect(last.finished_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const log = events.find((event) => event.event === 'log')!.data;
    expect(log).toMatchObject({ operation_id: operation.id, step: 'fetch', stream: 'stdout', line: `fetching ${tag}` });
  });

  it('resumes after Last-Event-ID with exactly the events missed while disconnected', async () => {
    const tag = unique('resume');
    gate(tag);
    const operation = await start(owner, { tag, waitOn: tag });
    const first = await EventStream.open(eventsUrl(stack, operation.id), bearer(token).headers);
    const before = await first.until((event) => event.event === 'log' && event.data.line === `fetching ${tag}`);
    first.close();
    const lastSeen = Number(before.at(-1)!.id);

    // While nobody listens: the step goes on, the operation ends.
    gates.get(tag)!();
    await until(async () => (await statusOf(operation.id)) === 'succeeded', 'the operation to succeed', 20_000, 50);
    const missed = await storedIds(operation.id, lastSeen);
    expect(missed.length).toBeGreaterThanOrEqual(5); // fetched log, fetch done, apply running, its log, apply done, operation done

    const resumed = await EventStream.open(eventsUrl(stack, operation.id), bearer(token, { 'last-event-id': String(lastSeen) }).headers);
    const after = await resumed.until((event) => event.event === 'end');
    after.pop();
    expect(ids(after)).toEqual(missed);
    // Together: every event once, none lost, none repeated.
    expect([...ids(before), ...ids(after)]).toEqual(await storedIds(operation.id));
  });

  it('is served by another API process, woken by NOTIFY when a worker elsewhere writes', async () => {
    const tag = unique('elsewhere');
    gate(tag);
    const operation = await start(owner, { tag, waitOn: tag });
    // `other` has no workers: the operation runs in `stack`'s; a cookie session reads it there.
    const { client } = await signedInClient(other, { user: owner });
    const cookie = [...client.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const stream = await EventStream.open(eventsUrl(other, operation.id), { cookie });
    expect(stream.status).toBe(200);
    const seen = await stream.until((event) => event.event === 'log' && event.data.line === `fetching ${tag}`);

    // A line written straight to the table, as a worker process would: it arrives well before the 5 s backstop.
    const writtenAt = Date.now();
    await stack.ctx.db('operation_logs').insert({ operation_id: operation.id, step: 'fetch', stream: 'info', line: 'written elsewhere' });
    const [line] = await stream.take(1);
    expect(line).toMatchObject({ event: 'log', data: { line: 'written elsewhere' } });
    expect(Date.now() - writtenAt).toBeLessThan(2_500);
    stream.close();

    // The query parameter resumes too (a first EventSource connection cannot set Last-Event-ID).
    gates.get(tag)!();
    await until(async () => (await statusOf(operation.id)) === 'succeeded', 'the operation to succeed', 20_000, 50);
    const resumed = await EventStream.open(eventsUrl(other, operation.id, `?last_event_id=${line!.id}`), { cookie });
    const after = await resumed.until((event) => event.event === 'end');
    after.pop();
    expect([...ids(seen), Number(line!.id), ...ids(after)]).toEqual(await storedIds(operation.id));
  });

  it("answers 404 for another team's operation and 401 without credentials", async () => {
    const theirs = await start(stranger, { tag: unique('theirs') }, { dispatch: false });
    const foreign = await EventStream.open(eventsUrl(stack, theirs.id), bearer(token).headers);
    expect(foreign.status).toBe(404);
    const anonymous = await EventStream.open(eventsUrl(stack, theirs.id));
    expect(anonymous.status).toBe(401);
    const bad = await EventStream.open(eventsUrl(stack, theirs.id), bearer(strangerToken, { 'last-event-id': 'yesterday' }).headers);
    expect(bad.status).toBe(422);
    const mine = await stack.client().get(`/v1/operations/${theirs.id}`, bearer(strangerToken));
    expect(mine.status).toBe(200); // the owner sees it: the 404 is the scope, not a broken id
  });
});

describe('GET /v1/events', () => {
  it("streams every event of the caller's team from now on, never another team's", async () => {
    const old = await start(owner, { tag: unique('before') });
    await until(async () => (await statusOf(old.id)) === 'succeeded', 'the earlier operation to succeed', 20_000, 50);

    const stream = await EventStream.open(`${stack.api.url}/v1/events`, bearer(token).headers);
    expect(stream.status).toBe(200);
    const theirs = await start(stranger, { tag: unique('theirs') });
    await until(async () => (await statusOf(theirs.id)) === 'succeeded', "the other team's operation to succeed", 20_000, 50);
    const mine = await start(owner, { tag: unique('mine') });
    const events = await stream.until((event) => event.event === 'operation' && event.data.id === mine.id && event.data.status === 'succeeded');
    stream.close();

    const operationsSeen = new Set(events.map((event) => (event.event === 'operation' ? event.data.id : event.data.operation_id)));
    expect([...operationsSeen]).toEqual([mine.id]); // not the earlier one (it starts now), not the stranger's
    expect(ids(events)).toEqual(await storedIds(mine.id));
    expect(await storedIds(theirs.id)).not.toHaveLength(0); // the stranger's events exist; they were not shown
  });
});

describe('the lifetime of a stream', () => {
  it('ends every stream after EVENT_STREAM_LIFETIME_MS, so a session signed out meanwhile is refused when the client reconnects', async () => {
    const brief = await startStack({ workers: false, env: { EVENT_STREAM_LIFETIME_MS: '1500' } });
    try {
      const { client } = await signedInClient(brief);
      const cookie = [...client.jar].map(([name, value]) => `${name}=${value}`).join('; ');
      const stream = await EventStream.open(`${brief.api.url}/v1/events`, { cookie });
      expect(stream.status).toBe(200);
      expect((await client.post('/api/v1/auth/logout')).status).toBe(200);
      // the open stream was admitted before the sign-out; it ends by itself, without an `end` event
      expect(await stream.next(10_000)).toBeUndefined();
      const again = await EventStream.open(`${brief.api.url}/v1/events`, { cookie });
      expect(again.status).toBe(401);
      again.close();
    } finally {
      await brief.stop();
    }
  });
});

describe('waiting', () => {
  it('says why a queued operation does not move: no worker on its queue', async () => {
    // Handed to `other`'s queue, which no worker serves (each test stack signs its own tokens).
    const operation = await start(owner, { tag: unique('idle') }, { on: other });
    const otherToken = await accessTokenOf(other.client(), owner);
    const reply = await other.client().get(`/v1/operations/${operation.id}`, bearer(otherToken));
    expect(reply.status).toBe(200);
    expect(reply.body.data.status).toBe('queued');
    expect(reply.body.data.waiting).toMatchObject({ reason: 'no_worker', message: expect.stringContaining('No worker') });
    const list = await other.client().get(`/v1/operations?status=queued`, bearer(otherToken));
    expect(list.body.data.find((item: { id: string }) => item.id === operation.id).waiting.reason).toBe('no_worker');
    await other.ctx.queues.get('operations').remove(operation.id);
    await stack.ctx.db('operations').where({ id: operation.id }).update({ status: 'cancelled', finished_at: new Date() });
  });

  it('is null once the operation has finished', async () => {
    const operation = await start(owner, { tag: unique('done') });
    await until(async () => (await statusOf(operation.id)) === 'succeeded', 'the operation to succeed', 20_000, 50);
    const reply = await stack.client().get(`/v1/operations/${operation.id}`, bearer(token));
    expect(reply.body.data.waiting).toBeNull();
  });
});
