/**
 * What a /v1 request costs against its floor, measured side by side in one run: the API runs in its
 * own process (`node cli/berth.ts api`, as `npm run api` starts it, logging at its default level to a
 * file), the floor is a bare Express 5 JSON route in another process, and the load generator
 * (test/bench/load/http-load.ts, raw keep-alive sockets) in a third. Rate limits are raised so every
 * request reaches its route. The floor is measured before and after the cases and the higher figure
 * is used, so a quiet moment cannot flatter the ratio. Each line also shows the server's CPU time per
 * request (from /proc), which a loaded machine disturbs less than req/s.
 *   npm run bench -- test/bench/v1-auth.bench.ts
 *   (BENCH_SECONDS per case, default 10; BENCH_CONNECTIONS, default 50; BENCH_CASES, a comma-separated filter of case names)
 * The login bench is test/bench/login.bench.ts.
 */
import { createDb } from '../../shared/db/knex.ts';
import { Client } from '../helpers/client.ts';
import { accessTokenOf, createOwner } from '../helpers/factories.ts';
import { startBenchApi } from './load/bench-api.ts';
import { freePort, runLoad, startServerProcess, type LoadResult } from './load/processes.ts';
import path from 'node:path';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const only = process.env.BENCH_CASES?.split(',');
const GOAL = 0.6;

const api = await startBenchApi();
const floorPort = await freePort();
const floor = await startServerProcess([path.join(import.meta.dirname, 'load', 'bare-express.ts'), String(floorPort)], {
  port: floorPort,
  logFile: path.join(api.dataDir, 'floor.log'),
});
const db = createDb(api.databaseUrl, { poolMax: 2 });
try {
  const owner = await createOwner(db);
  const panel = new Client(api.url, api.panelUrl);
  const access = await accessTokenOf(panel, owner);
  const created = await new Client(api.url, api.panelUrl).post(
    '/v1/api-tokens',
    { name: 'bench', permissions: ['*'] },
    { headers: { authorization: `Bearer ${access}` } },
  );
  if (created.status !== 201) throw new Error(`creating the API token answered ${created.status}`);
  const apiToken = created.body.data.token as string;
  const cookie = [...panel.jar].map(([name, value]) => `${name}=${value}`).join('; ');

  const everyCase: Array<{ name: string; path: string; headers: Record<string, string>; status: number }> = [
    { name: 'GET /v1/me, bearer JWT', path: '/v1/me', headers: { authorization: `Bearer ${access}` }, status: 200 },
    { name: 'GET /v1/me, API token', path: '/v1/me', headers: { authorization: `Bearer ${apiToken}` }, status: 200 },
    { name: 'GET /v1/me, cookie session', path: '/v1/me', headers: { cookie }, status: 200 },
    { name: 'GET /v1/sites/php-versions', path: '/v1/sites/php-versions', headers: { authorization: `Bearer ${access}` }, status: 200 },
    { name: 'unknown path outside /v1', path: '/api/nothing-here', headers: {}, status: 404 },
    { name: 'anonymous /v1 404', path: '/v1/nothing-here', headers: {}, status: 404 },
  ];
  const cases = everyCase.filter((entry) => !only || only.some((name) => entry.name.includes(name)));

  /** The load's figures, and the CPU the server spent per request (µs; the warm-up's requests included in neither). */
  const load = async (server: { port: number; cpuSeconds(): number }, entry: { path: string; headers: Record<string, string> }) => {
    const cpuBefore = server.cpuSeconds();
    const result = await runLoad({ port: server.port, path: entry.path, headers: entry.headers, seconds, warmupSeconds: 2, concurrency: connections });
    const cpuUs = ((server.cpuSeconds() - cpuBefore) * 1e6) / (result.requests + result.rps * 2);
    return { ...result, cpuUs };
  };
  const floorBefore = await load(floor, { path: '/x', headers: {} });
  const measured: Array<{ name: string; result: LoadResult & { cpuUs: number }; status: number }> = [];
  for (const entry of cases) measured.push({ name: entry.name, status: entry.status, result: await load(api, entry) });
  const floorAfter = await load(floor, { path: '/x', headers: {} });
  const floorRps = Math.max(floorBefore.rps, floorAfter.rps);
  const floorCpuUs = Math.min(floorBefore.cpuUs, floorAfter.cpuUs);

  console.log(`\n/v1 hot path: ${connections} connections, ${seconds} s per case, API, floor and load generator in separate processes`);
  console.log(
    `floor: bare Express 5 JSON route, ${floorBefore.rps.toFixed(0)} req/s before the cases, ${floorAfter.rps.toFixed(0)} after; the higher is used` +
      ` (CPU ${floorCpuUs.toFixed(0)} µs/request)`,
  );
  console.log(
    'case'.padEnd(30),
    'req/s'.padStart(8),
    'p50 ms'.padStart(8),
    'p99 ms'.padStart(8),
    'floor'.padStart(8),
    'ratio'.padStart(7),
    'goal'.padStart(7),
    'met'.padStart(4),
    'CPU µs/req'.padStart(11),
    'CPU ratio'.padStart(10),
    '  statuses',
  );
  for (const { name, result, status } of measured) {
    const ratio = result.rps / floorRps;
    const wrong = Object.keys(result.statuses).some((code) => Number(code) !== status) || result.errors > 0;
    console.log(
      name.padEnd(30),
      result.rps.toFixed(0).padStart(8),
      result.p50Ms.toFixed(2).padStart(8),
      result.p99Ms.toFixed(2).padStart(8),
      floorRps.toFixed(0).padStart(8),
      ratio.toFixed(3).padStart(7),
      `≥ ${GOAL}`.padStart(7),
      (ratio >= GOAL ? 'yes' : 'no').padStart(4),
      result.cpuUs.toFixed(0).padStart(11),
      (floorCpuUs / result.cpuUs).toFixed(3).padStart(10),
      `  ${JSON.stringify(result.statuses)}${result.errors ? ` errors ${result.errors}` : ''}${wrong ? ` (expected only ${status})` : ''}`,
    );
  }
} finally {
  await db.destroy();
  await floor.stop();
  await api.stop();
}
