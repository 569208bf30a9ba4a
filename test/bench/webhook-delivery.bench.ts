/**
 * Webhook delivery (issue 14): how fast events written to the outbox reach a receiver on loopback,
 * against a baseline measured in the same run: the same signed POSTs sent straight to the receiver
 * by the same HTTP code, 16 at a time (the workers' concurrency). Also the latency of one event,
 * commit to receipt, which the dispatch interval bounds from below.
 *   npm run bench -- test/bench/webhook-delivery.bench.ts     (BENCH_EVENTS, default 2000; BENCH_DISPATCH, default 100ms)
 */
import { createDb } from '../../shared/db/knex.ts';
import { ensureDatabaseExists, migrateToLatest } from '../../shared/db/migrate.ts';
import { emitEvent } from '../../shared/domains/webhooks/events.ts';
import { signedHeaders } from '../../shared/domains/webhooks/signing.ts';
import { postOnce } from '../../workers/webhooks/http-attempt.ts';
import { accessTokenOf, createOwner } from '../helpers/factories.ts';
import { testDatabaseUrl } from '../helpers/services.ts';
import { startStack } from '../helpers/stack.ts';
import { call } from '../helpers/team-members.ts';
import { until } from '../helpers/until.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

const total = Number(process.env.BENCH_EVENTS ?? 2000);
const dispatch = process.env.BENCH_DISPATCH ?? '100ms';
const setup = createDb(testDatabaseUrl, { poolMax: 1 });
await ensureDatabaseExists(testDatabaseUrl);
await migrateToLatest(setup);
await setup.destroy();

const receiver = await new WebhookReceiver().start();
const stack = await startStack({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_DISPATCH_INTERVAL: dispatch } });

try {
  const owner = await createOwner(stack.ctx.db);
  const token = await accessTokenOf(stack.client(), owner);
  const endpoint = (await call(stack.client(), 'POST', '/v1/webhooks', token, { url: receiver.url('/bench') })).body.data;
  const body = (i: number) => JSON.stringify({ type: 'site.renamed', timestamp: new Date().toISOString(), data: { site: { id: i, name: `site ${i}` } } });

  // baseline: the same POSTs, signed, straight to the receiver, 16 in flight
  let next = 0;
  const baselineStarted = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < total) {
        const i = next++;
        const result = await postOnce(
          receiver.url('/baseline'),
          { 'content-type': 'application/json', ...signedHeaders([endpoint.secret], `msg_${i}`, body(i)) },
          body(i),
          { timeoutMs: 15_000, allowPrivate: true },
        );
        if (result.status !== 200) throw new Error(`baseline POST answered ${result.status ?? result.error}`);
      }
    }),
  );
  const baselineMs = performance.now() - baselineStarted;

  // Berth: the events committed in one transaction, then dispatched, delivered and logged
  const started = performance.now();
  await stack.ctx.db.transaction(async (trx) => {
    for (let i = 0; i < total; i++) await emitEvent(trx, { teamId: owner.teamId, type: 'site.renamed', data: { site: { id: i, name: `site ${i}` } } });
  });
  const committedMs = performance.now() - started;
  const received = () => receiver.received.filter((request) => request.path === '/bench').length;
  await until(() => received() >= total, 'every event delivered', 600_000, 5);
  const deliveredMs = performance.now() - started;
  const logged = async () =>
    Number((await stack.ctx.db('webhook_deliveries').where({ endpoint_id: endpoint.id, status: 'succeeded' }).count({ n: '*' }))[0]!.n);
  while ((await logged()) < total) await new Promise((resolve) => setTimeout(resolve, 20));
  const loggedMs = performance.now() - started;

  // one event at a time: commit to receipt
  const latencies: number[] = [];
  for (let i = 0; i < 15; i++) {
    const before = received();
    const at = performance.now();
    await stack.ctx.db.transaction((trx) => emitEvent(trx, { teamId: owner.teamId, type: 'site.renamed', data: { site: { id: i, name: 'one' } } }));
    await until(() => received() > before, 'the event delivered', 60_000, 5);
    latencies.push(performance.now() - at);
  }
  latencies.sort((a, b) => a - b);

  const perSecond = (ms: number) => Math.round((total / ms) * 1000);
  console.log(`\nwebhook delivery, ${total} events, dispatch every ${dispatch}`);
  console.log(`  baseline (direct signed POSTs, 16 in flight): ${baselineMs.toFixed(0)} ms, ${perSecond(baselineMs)}/s`);
  console.log(`  outbox writes (one transaction):               ${committedMs.toFixed(0)} ms`);
  console.log(
    `  all received through Berth:                    ${deliveredMs.toFixed(0)} ms, ${perSecond(deliveredMs)}/s, ${(deliveredMs / baselineMs).toFixed(2)}x the baseline`,
  );
  console.log(`  all logged as succeeded:                       ${loggedMs.toFixed(0)} ms`);
  console.log(
    `  one event, commit to receipt: median ${latencies[7]!.toFixed(0)} ms, min ${latencies[0]!.toFixed(0)} ms, max ${latencies.at(-1)!.toFixed(0)} ms`,
  );
} finally {
  await stack.stop();
  await receiver.stop();
}
