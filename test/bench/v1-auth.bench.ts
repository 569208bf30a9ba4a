/**
 * What authentication costs a /v1 request. Every request goes through the same pipeline (request id,
 * rate limit in Redis, routing); the baseline is an anonymous request to an unknown path (no
 * caller to find), measured in the same run, against which each way of authenticating is a ratio:
 * a bearer access token (EdDSA verify + session state + membership read), an API token (hash lookup
 * + membership read), the panel's cookie session.
 *   npm run bench -- test/bench/v1-auth.bench.ts      (BENCH_REQUESTS per case, default 2000; BENCH_CONCURRENCY, default 8)
 */
import { ensureDatabaseExists, migrateToLatest } from '../../shared/db/migrate.ts';
import { createDb } from '../../shared/db/knex.ts';
import { accessTokenOf, createOwner } from '../helpers/factories.ts';
import { testDatabaseUrl } from '../helpers/services.ts';
import { startStack } from '../helpers/stack.ts';

const requests = Number(process.env.BENCH_REQUESTS ?? 2000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);

const db = createDb(testDatabaseUrl, { poolMax: 1 });
await ensureDatabaseExists(testDatabaseUrl);
await migrateToLatest(db);
await db.destroy();

const stack = await startStack({ workers: false, env: { RATE_LIMIT_API: '1000000/1m', RATE_LIMIT_API_BURST: '1000000/1s' } });
try {
  const owner = await createOwner(stack.ctx.db);
  const panel = stack.client();
  const access = await accessTokenOf(panel, owner);
  const created = await stack.client().post('/v1/api-tokens', { name: 'bench', permissions: ['*'] }, { headers: { authorization: `Bearer ${access}` } });
  const apiToken = created.body.data.token as string;
  const cookie = [...panel.jar].map(([name, value]) => `${name}=${value}`).join('; ');

  const cases: Array<{ name: string; path: string; headers: Record<string, string>; status: number }> = [
    { name: 'baseline: anonymous, unknown path', path: '/v1/nothing-here', headers: {}, status: 404 },
    { name: 'GET /v1/me, bearer access token', path: '/v1/me', headers: { authorization: `Bearer ${access}` }, status: 200 },
    { name: 'GET /v1/me, API token', path: '/v1/me', headers: { authorization: `Bearer ${apiToken}` }, status: 200 },
    { name: 'GET /v1/me, cookie session', path: '/v1/me', headers: { cookie }, status: 200 },
  ];

  const results: Array<{ name: string; perSecond: number; p50: number; p99: number }> = [];
  for (const entry of cases) {
    await requestLatencies(entry, 200); // warm up: JIT, connection pools, caches
    const started = performance.now();
    const latencies = await requestLatencies(entry, requests);
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    results.push({
      name: entry.name,
      perSecond: requests / seconds,
      p50: latencies[Math.floor(latencies.length * 0.5)]!,
      p99: latencies[Math.floor(latencies.length * 0.99)]!,
    });
  }
  const baseline = results[0]!;
  console.log(`\n/v1 authentication, ${requests} requests per case, ${concurrency} at a time, API in this process`);
  console.log('case'.padEnd(40), 'req/s'.padStart(8), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'time vs baseline'.padStart(18));
  for (const result of results) {
    console.log(
      result.name.padEnd(40),
      result.perSecond.toFixed(0).padStart(8),
      result.p50.toFixed(2).padStart(8),
      result.p99.toFixed(2).padStart(8),
      `${(baseline.perSecond / result.perSecond).toFixed(2)}x`.padStart(18),
    );
  }
} finally {
  await stack.stop();
}

/** `count` GETs of `entry.path`, `concurrency` at a time, each of which must answer `entry.status`: their latencies (ms). */
async function requestLatencies(entry: { path: string; headers: Record<string, string>; status: number }, count: number): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      const started = performance.now();
      const reply = await fetch(`${stack.api.url}${entry.path}`, { headers: entry.headers });
      await reply.arrayBuffer();
      latencies.push(performance.now() - started);
      if (reply.status !== entry.status) throw new Error(`${entry.path} answered ${reply.status}, expected ${entry.status}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return latencies;
}
