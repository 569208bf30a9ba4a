/**
 * The operation pipeline, end to end: API → queue → worker → agent → result, with `node.ping` (one
 * no-op agent command) against a real agent process, next to its floor measured in the same run:
 * BullMQ alone (add → completed with a no-op processor, on this Redis).
 *   (a) one at a time: p50 client-side (POST → the event stream's `end`), and server-side
 *       (the operation's created_at → finished_at); floor: one BullMQ job's add → completed;
 *   (b) many in flight: BENCH_PARALLEL operations, BENCH_CONCURRENCY at once: ops/s; floor: as
 *       many BullMQ jobs, as many at once, jobs/s.
 * The API and workers run in this process (as `npm start` runs them), the agent and the load
 * generator (test/bench/load/operation-load.ts) each in their own.
 *   npm run bench -- test/bench/operations.bench.ts   (BENCH_SERIAL 50, BENCH_PARALLEL 500, BENCH_CONCURRENCY 50)
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { createDb } from '../../shared/db/knex.ts';
import { ensureDatabaseExists, migrateToLatest } from '../../shared/db/migrate.ts';
import { startAgentNode } from '../helpers/agent-node.ts';
import { accessTokenOf, createOwner } from '../helpers/factories.ts';
import { median } from '../helpers/measure.ts';
import { testDatabaseUrl, testRedisUrl } from '../helpers/services.ts';
import { startStack } from '../helpers/stack.ts';

const serial = Number(process.env.BENCH_SERIAL ?? 50);
const parallel = Number(process.env.BENCH_PARALLEL ?? 500);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 50);
const run = promisify(execFile);

const setup = createDb(testDatabaseUrl, { poolMax: 1 });
await ensureDatabaseExists(testDatabaseUrl);
await migrateToLatest(setup);
await setup.destroy();

type Line = { name: string; measured: number; unit: string; floor: number; floorWhat: string; goal: string; met: boolean };
function report(line: Line): void {
  const format = (value: number) => (Math.abs(value) >= 100 ? value.toFixed(0) : Number(value.toPrecision(3)).toString());
  console.log(
    `bench | ${line.name} | measured ${format(line.measured)} ${line.unit} | floor ${format(line.floor)} ${line.unit} (${line.floorWhat}) | ` +
      `ratio ${format(line.measured / line.floor)} | goal ${line.goal} | met ${line.met ? 'yes' : 'no'}`,
  );
}

/** BullMQ alone on this Redis: a no-op processor, one job at a time (p50 add → completed), then `count` jobs `inFlight` at once (jobs/s). */
async function bullmqFloor(count: number, inFlight: number): Promise<{ p50Ms: number; jobsPerSecond: number }> {
  const connection = new Redis(testRedisUrl, { maxRetriesPerRequest: null });
  const prefix = `{bench-floor-${randomBytes(4).toString('hex')}}`;
  const queue = new Queue('floor', { connection, prefix });
  const worker = new Worker('floor', async () => null, { connection: connection.duplicate(), prefix, concurrency: inFlight });
  await Promise.all([queue.waitUntilReady(), worker.waitUntilReady()]);
  // completion seen where it happens (the worker's event, this process): the tightest floor
  const waiting = new Map<string, () => void>();
  worker.on('completed', (job) => waiting.get(job.id!)?.());
  try {
    const one: number[] = [];
    for (let round = 0; round < 20 + serial; round++) {
      const at = performance.now();
      const id = `one-${round}`;
      const finished = new Promise<void>((resolve) => waiting.set(id, resolve));
      await queue.add('noop', { round }, { jobId: id, removeOnComplete: true });
      await finished;
      if (round >= 20) one.push(performance.now() - at);
    }
    let completed = 0;
    const done = new Promise<void>((resolve) =>
      worker.on('completed', () => {
        completed += 1;
        if (completed === count) resolve();
      }),
    );
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < count) {
          next += 1;
          await queue.add('noop', { next }, { removeOnComplete: true });
        }
      }),
    );
    await done;
    return { p50Ms: median(one), jobsPerSecond: count / ((performance.now() - started) / 1000) };
  } finally {
    await worker.close();
    await queue.obliterate({ force: true });
    await queue.close();
    connection.disconnect();
  }
}

type LoadResult = { seconds: number; outcomes: Array<{ id: string; status: string; ms: number }> };
async function load(port: number, nodeId: string, token: string, count: number, inFlight: number): Promise<LoadResult> {
  const script = path.resolve('test/bench/load/operation-load.ts');
  const spec = { port, path: `/v1/nodes/${nodeId}/ping`, token, count, concurrency: inFlight };
  const { stdout } = await run(process.execPath, [script, JSON.stringify(spec)], { maxBuffer: 64 * 1024 * 1024 });
  const result = JSON.parse(stdout) as LoadResult;
  const failed = result.outcomes.filter((outcome) => outcome.status !== 'succeeded');
  if (failed.length > 0) throw new Error(`${failed.length} of ${count} pings did not succeed (first: ${JSON.stringify(failed[0])})`);
  return result;
}

const floor = await bullmqFloor(Math.max(parallel, 5000), concurrency);

// every request must reach its route: the API's limits far above what the load sends
const stack = await startStack({ env: { RATE_LIMIT_API: '10000000/1m', RATE_LIMIT_API_BURST: '1000000/1s', RATE_LIMIT_AGENT: '10000000/1m' } });
const node = await startAgentNode({ db: stack.ctx.db, apiUrl: stack.api.url });
try {
  const operator = await createOwner(stack.ctx.db);
  await stack.ctx.db('users').where({ id: operator.userId }).update({ platform_role: 'operator' });
  const token = await accessTokenOf(stack.client(), operator);
  const port = Number(new URL(stack.api.url).port);

  await load(port, node.nodeId, token, 10, 1); // warm-up: connections, JIT, the agent's first poll
  // statements sent to Postgres by the API (the client's and the agent's requests) and the workers: a figure the machine's load does not move
  let statements = 0;
  const count = () => (statements += 1);
  stack.ctx.db.on('query', count);
  const one = await load(port, node.nodeId, token, serial, 1);
  stack.ctx.db.off('query', count);
  const rows = (await stack.ctx
    .db('operations')
    .whereIn(
      'id',
      one.outcomes.map((outcome) => outcome.id),
    )
    .select('created_at', 'finished_at')) as Array<{ created_at: Date; finished_at: Date }>;
  const server = median(rows.map((row) => row.finished_at.getTime() - row.created_at.getTime()));

  const loopBefore = performance.eventLoopUtilization();
  const cpuBefore = process.cpuUsage();
  const many = await load(port, node.nodeId, token, parallel, concurrency);
  const loopBusy = performance.eventLoopUtilization(loopBefore).utilization;
  const cpu = process.cpuUsage(cpuBefore);
  const opsPerSecond = parallel / many.seconds;
  const manyRows = (await stack.ctx
    .db('operations')
    .whereIn(
      'id',
      many.outcomes.map((outcome) => outcome.id),
    )
    .select('created_at', 'started_at', 'finished_at')) as Array<{ created_at: Date; started_at: Date; finished_at: Date }>;
  const span = (from: Array<Date>, to: Array<Date>) => (Math.max(...to.map(Number)) - Math.min(...from.map(Number))) / 1000;
  const manyServer =
    parallel /
    span(
      manyRows.map((row) => row.created_at),
      manyRows.map((row) => row.finished_at),
    );

  console.log(
    `\noperations pipeline (node.ping, one real agent): worker concurrency ${stack.ctx.config.operations.concurrency}, ` +
      `${serial} one at a time, ${parallel} with ${concurrency} in flight; ${(statements / serial).toFixed(1)} Postgres statements per operation ` +
      "(API, with the client's POST and event stream and the agent's requests, and workers)",
  );
  const floorOne = `BullMQ add→completed, no-op processor`;
  report({
    name: 'operation one at a time, client p50',
    measured: median(one.outcomes.map((outcome) => outcome.ms)),
    unit: 'ms',
    floor: floor.p50Ms,
    floorWhat: floorOne,
    goal: '≤ 20 ms',
    met: median(one.outcomes.map((outcome) => outcome.ms)) <= 20,
  });
  report({
    name: 'operation one at a time, server p50 (created→finished)',
    measured: server,
    unit: 'ms',
    floor: floor.p50Ms,
    floorWhat: floorOne,
    goal: '≤ 20 ms',
    met: server <= 20,
  });
  console.log(
    `in parallel: client p50 ${median(many.outcomes.map((outcome) => outcome.ms)).toFixed(1)} ms, server p50 ` +
      `${median(manyRows.map((row) => row.finished_at.getTime() - row.created_at.getTime())).toFixed(1)} ms (created→finished), ` +
      `${median(manyRows.map((row) => row.started_at.getTime() - row.created_at.getTime())).toFixed(1)} ms created→started; ` +
      `server-side ${manyServer.toFixed(1)} ops/s (first created → last finished); API and workers' event loop ${(100 * loopBusy).toFixed(0)} % busy, ` +
      `${((cpu.user + cpu.system) / 1000 / parallel).toFixed(1)} ms CPU per operation`,
  );
  report({
    name: `operations in parallel (${concurrency} in flight)`,
    measured: opsPerSecond,
    unit: 'ops/s',
    floor: floor.jobsPerSecond,
    floorWhat: `BullMQ alone, no-op processor, ${concurrency} in flight`,
    goal: '≥ 500 ops/s',
    met: opsPerSecond >= 500,
  });
} finally {
  await node.stop();
  await stack.stop();
}
process.exit(0);
