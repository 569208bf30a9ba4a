/**
 * What the edge's page cache buys: requests per second through a real node's edge to a real
 * WordPress front page, served from the cache (X-Cache: HIT) and rendered by PHP (the same page,
 * bypassing the cache as a platform probe does), with the floor of the same edge serving a static
 * file of the site (readme.html: nginx from disk, no PHP). The load comes from a separate process
 * (test/bench/load/http-load.ts) with keep-alive connections, so the figures are the edge's and
 * PHP's, not the load generator's event loop shared with them.
 *   npm run bench -- test/bench/page-cache.bench.ts   (BENCH_SECONDS, default 10; BENCH_CONCURRENCY, default 16)
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { ensureDatabaseExists, migrateToLatest } from '../../shared/db/migrate.ts';
import { createDb } from '../../shared/db/knex.ts';
import { PROBE_HEADER } from '../../shared/wordpress/edge-cache.ts';
import { testDatabaseUrl } from '../helpers/services.ts';
import { startSiteOnNode } from '../helpers/site-on-node.ts';
import { reportFigure } from './report.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const loadScript = path.join(import.meta.dirname, 'load', 'http-load.ts');

const db = createDb(testDatabaseUrl, { poolMax: 1 });
await ensureDatabaseExists(testDatabaseUrl);
await migrateToLatest(db);
await db.destroy();

type Load = { requests: number; errors: number; rps: number; statuses: Record<string, number>; cache: Record<string, number> };

/** One load run in its own process. */
async function load(port: number, host: string, pathname: string, headers: Record<string, string> = {}): Promise<Load> {
  const spec = { port, host, path: pathname, headers, seconds, warmupSeconds: 2, concurrency };
  const { stdout } = await promisify(execFile)(process.execPath, [loadScript, JSON.stringify(spec)], { timeout: (seconds + 60) * 1000 });
  const result = JSON.parse(stdout) as Load;
  if (result.errors > 0 || Object.keys(result.statuses).some((status) => status !== '200'))
    throw new Error(`${host}${pathname}: ${JSON.stringify(result)} (every answer should be 200)`);
  return result;
}

const site = await startSiteOnNode('page-cache-bench', { title: 'Page cache bench' });
try {
  const { edgePort } = site.node;
  const host = site.production.domain;
  if (!site.production.page_cache) throw new Error('production should have its page cache on');
  const floor = await load(edgePort, host, '/readme.html');
  const cached = await load(edgePort, host, '/');
  const uncached = await load(edgePort, host, '/', { [PROBE_HEADER]: 'bench' });
  if ((cached.cache.HIT ?? 0) < cached.requests - concurrency) throw new Error(`the cached run was not served from the cache: ${JSON.stringify(cached.cache)}`);
  if ((uncached.cache.BYPASS ?? 0) !== uncached.requests) throw new Error(`the uncached run reached the cache: ${JSON.stringify(uncached.cache)}`);

  console.log(`\nPage cache through the edge: ${concurrency} keep-alive connections for ${seconds} s each, load from its own process`);
  console.log('what'.padEnd(44), 'req/s'.padStart(9), 'requests'.padStart(9), '  X-Cache');
  const row = (what: string, result: Load) =>
    console.log(what.padEnd(44), result.rps.toFixed(0).padStart(9), String(result.requests).padStart(9), ' ', JSON.stringify(result.cache));
  row('floor: static readme.html (nginx, no PHP)', floor);
  row('measured: front page from the cache (HIT)', cached);
  row('front page rendered by PHP (BYPASS)', uncached);
  console.log(`ratio cached / floor: ${(cached.rps / floor.rps).toFixed(2)}; cached / uncached: ${(cached.rps / uncached.rps).toFixed(1)}x`);
  // goal: a cached page costs the edge about what a static file does
  reportFigure({
    name: 'front page from the edge cache',
    measured: cached.rps,
    unit: 'req/s',
    floor: floor.rps,
    floorWhat: 'static readme.html, same edge',
    goal: { ratioAtLeast: 0.5 },
  });
} finally {
  await site.stop();
}
