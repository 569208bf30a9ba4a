/**
 * Webhook delivery (issues 14 and 24): how soon an event committed to the outbox reaches a receiver,
 * and how many events a second go through, against the floor measured in the same run: the same
 * signed POSTs sent straight to the same receiver by the same HTTP code, 16 in flight (the workers'
 * webhook concurrency). The receiver is a process of its own (load/webhook-sink.ts), so it shares
 * no event loop with the workers or the direct POSTs; the bench has its own database and Redis
 * database (load/bench-services.ts). Default settings unless BENCH_DISPATCH sets the dispatch
 * interval (the poll).
 *   npm run bench -- test/bench/webhook-delivery.bench.ts     (BENCH_EVENTS, default 1000; BENCH_SINGLES, default 31)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { emitEvent } from '../../shared/domains/webhooks/events.ts';
import { signedHeaders } from '../../shared/domains/webhooks/signing.ts';
import { postOnce } from '../../workers/webhooks/http-attempt.ts';
import { accessTokenOf, createOwner } from '../helpers/factories.ts';
import { median } from '../helpers/measure.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { call } from '../helpers/team-members.ts';
import { benchServices } from './load/bench-services.ts';
import type { SinkMessage } from './load/webhook-sink.ts';

const total = Number(process.env.BENCH_EVENTS ?? 1000);
const singles = Number(process.env.BENCH_SINGLES ?? 31);
const IN_FLIGHT = 16;
const GOAL_P50_MS = 100;
const GOAL_RATIO = 0.5;
const now = () => performance.timeOrigin + performance.now();

/** The receiver's process and what it has told us: receipt times by path. */
class Sink {
  readonly times = new Map<string, number[]>();
  private waiters: Array<() => void> = [];
  readonly child: ChildProcess;
  readonly port: number;
  private constructor(child: ChildProcess, port: number) {
    this.child = child;
    this.port = port;
    child.on('message', (message: SinkMessage) => {
      if (!('received' in message)) return;
      for (const { path, at } of message.received) this.times.set(path, [...(this.times.get(path) ?? []), at]);
      for (const wake of this.waiters.splice(0)) wake();
    });
  }
  static start(): Promise<Sink> {
    const child = fork(new URL('./load/webhook-sink.ts', import.meta.url), { stdio: 'inherit' });
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('message', (message: SinkMessage) => {
        if ('port' in message) resolve(new Sink(child, message.port));
      });
    });
  }
  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }
  count(path: string): number {
    return this.times.get(path)?.length ?? 0;
  }
  /** The receipt time of the `count`-th request to `path`, once it has come (or throws after `timeoutMs`). */
  async nth(path: string, count: number, timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (this.count(path) < count) {
      if (Date.now() > deadline) throw new Error(`${path}: ${this.count(path)} of ${count} received within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        this.waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
    return [...this.times.get(path)!].sort((a, b) => a - b)[count - 1]!;
  }
  stop(): void {
    this.child.disconnect();
  }
}

const services = await benchServices('webhook_delivery');
const sink = await Sink.start();
let stack: Stack | undefined;
try {
  stack = await startStack({
    env: {
      ...services.env,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      // the stacks of the tests dispatch nothing unless asked; the bench runs the defaults
      WEBHOOK_DISPATCH_INTERVAL: process.env.BENCH_DISPATCH ?? '1s',
    },
  });
  const owner = await createOwner(stack.ctx.db);
  const token = await accessTokenOf(stack.client(), owner);
  const endpoint = (await call(stack.client(), 'POST', '/v1/webhooks', token, { url: sink.url('/berth') })).body.data as { id: number; secret: string };
  const body = (i: number) => JSON.stringify({ type: 'site.renamed', timestamp: new Date().toISOString(), data: { site: { id: i, name: `site ${i}` } } });
  const post = async (path: string, i: number) => {
    const result = await postOnce(sink.url(path), { 'content-type': 'application/json', ...signedHeaders([endpoint.secret], `msg_${i}`, body(i)) }, body(i), {
      timeoutMs: 15_000,
      allowPrivate: true,
    });
    if (result.status !== 200) throw new Error(`direct POST answered ${result.status ?? result.error}`);
  };

  // the floor: the same signed POSTs straight to the sink, one at a time (latency), then IN_FLIGHT at a time (throughput)
  const floorLatencies: number[] = [];
  for (let i = 0; i < singles; i++) {
    const at = now();
    await post('/direct-one', i);
    floorLatencies.push((await sink.nth('/direct-one', i + 1, 10_000)) - at);
  }
  let next = 0;
  const floorStarted = now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < total) await post('/direct', next++);
    }),
  );
  const floorPerSecond = (total / ((await sink.nth('/direct', total, 60_000)) - floorStarted)) * 1000;

  // Berth, one event at a time: from the start of its transaction to its receipt
  const latencies: number[] = [];
  for (let i = 0; i < singles; i++) {
    const at = now();
    await stack.ctx.db.transaction((trx) => emitEvent(trx, { teamId: owner.teamId, type: 'site.renamed', data: { site: { id: i, name: 'one' } } }));
    latencies.push((await sink.nth('/berth', i + 1, 60_000)) - at);
  }

  // Berth, many: `total` events committed in one transaction, from its commit (when delivery may start) to the last receipt
  const writeStarted = now();
  await stack.ctx.db.transaction(async (trx) => {
    for (let i = 0; i < total; i++) await emitEvent(trx, { teamId: owner.teamId, type: 'site.renamed', data: { site: { id: i, name: `site ${i}` } } });
  });
  const committed = now();
  const committedMs = committed - writeStarted;
  const perSecond = (total / ((await sink.nth('/berth', singles + total, 900_000)) - committed)) * 1000;

  const p50 = median(latencies);
  const floorP50 = median(floorLatencies);
  const dispatch = process.env.BENCH_DISPATCH ?? '1s (default)';
  console.log(
    `\nwebhook delivery, ${singles} single events then ${total} in one transaction (written in ${committedMs.toFixed(0)} ms), dispatch poll ${dispatch}`,
  );
  console.log('measure'.padEnd(34), 'measured'.padStart(10), 'floor'.padStart(10), 'ratio'.padStart(7), 'goal'.padStart(14), ' met');
  console.log(
    'event -> delivery p50 (ms)'.padEnd(34),
    p50.toFixed(1).padStart(10),
    floorP50.toFixed(1).padStart(10),
    `${(p50 / floorP50).toFixed(1)}x`.padStart(7),
    `<= ${GOAL_P50_MS} ms`.padStart(14),
    p50 <= GOAL_P50_MS ? ' yes' : ' no',
  );
  console.log(
    'throughput (events/s)'.padEnd(34),
    perSecond.toFixed(0).padStart(10),
    floorPerSecond.toFixed(0).padStart(10),
    (perSecond / floorPerSecond).toFixed(2).padStart(7),
    `>= ${GOAL_RATIO} x floor`.padStart(14),
    perSecond / floorPerSecond >= GOAL_RATIO ? ' yes' : ' no',
  );
  const sorted = [...latencies].sort((a, b) => a - b);
  console.log(`  single events: min ${sorted[0]!.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms; floor: direct signed POSTs, ${IN_FLIGHT} in flight`);
} finally {
  await stack?.stop();
  sink.stop();
}
