/**
 * The web panel's weight and speed, in Debian's Chromium on loopback: the JavaScript the first page
 * loads (gzipped; goal < 250 KB) and, per page, the time from navigation to interactive (its heading
 * drawn and no "Loading…" left, its API answers in), cold (empty cache) and warm; goal < 1 s. The
 * floor, measured in the same run the same way: a bare HTML page with one heading from a plain
 * Node HTTP server.
 *   npm run bench -- test/bench/panel.bench.ts      (BENCH_ROUNDS per page, default 5)
 */
import http from 'node:http';
import fs from 'node:fs';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { ensureDatabaseExists, migrateToLatest } from '../../shared/db/migrate.ts';
import { createDb } from '../../shared/db/knex.ts';
import { signedInClient } from '../helpers/factories.ts';
import { launchChromium, PANEL_DIST_INDEX } from '../helpers/panel-browser.ts';
import { median } from '../helpers/measure.ts';
import { testDatabaseUrl } from '../helpers/services.ts';
import { startStack } from '../helpers/stack.ts';
import { reportFigure } from './report.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const BUNDLE_GOAL_KB = 250;
const INTERACTIVE_GOAL_MS = 1000;

const db = createDb(testDatabaseUrl, { poolMax: 1 });
await ensureDatabaseExists(testDatabaseUrl);
await migrateToLatest(db);
await db.destroy();
if (!fs.existsSync(PANEL_DIST_INDEX)) throw new Error(`${PANEL_DIST_INDEX} is missing: npm run bench builds the panel first (ops/lib/panel.sh)`);

const stack = await startStack({ workers: false, env: { RATE_LIMIT_API: '1000000/1m', RATE_LIMIT_API_BURST: '1000000/1s' } });
const floor = http.createServer((_req, res) =>
  res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>floor</title><main><h1>Floor</h1></main>'),
);
await new Promise<void>((resolve) => floor.listen(0, '127.0.0.1', resolve));
const floorUrl = `http://127.0.0.1:${(floor.address() as AddressInfo).port}/`;
const browser = await launchChromium();
try {
  const { user, client } = await signedInClient(stack);
  for (let index = 1; index <= 3; index++) {
    await stack.ctx
      .db('sites')
      .insert({ team_id: user.teamId, name: `Bench site ${index}`, slug: `bench-${Date.now() % 1e6}-${index}`, region: 'bench', status: 'active' });
  }
  const site = await stack.ctx.db('sites').where({ team_id: user.teamId }).first();
  const cookies = [...client.jar].map(([name, value]) => ({ name, value, domain: '127.0.0.1', path: '/' }));

  const firstPage = await firstPageJavaScript(browser, `${stack.api.url}/sign-in`);
  const pages = [
    { name: 'sign-in', path: '/sign-in', session: false },
    { name: 'sites', path: '/', session: true },
    { name: 'new site', path: '/sites/new', session: true },
    { name: 'site', path: `/sites/${site.id}`, session: true },
    { name: 'operations', path: '/operations', session: true },
  ];
  const rows = [{ name: 'floor: bare HTML page', ...(await timings(browser, floorUrl, [])) }];
  for (const entry of pages) rows.push({ name: entry.name, ...(await timings(browser, stack.api.url + entry.path, entry.session ? cookies : [])) });

  console.log(
    `\nweb panel, first page (/sign-in): ${firstPage.files} JavaScript files, ${(firstPage.raw / 1024).toFixed(1)} KB, ${(firstPage.gzipped / 1024).toFixed(1)} KB gzipped`,
  );
  console.log(`  goal < ${BUNDLE_GOAL_KB} KB gzipped: ${firstPage.gzipped / 1024 < BUNDLE_GOAL_KB ? 'met' : 'NOT met'}`);
  console.log(`\ntime to interactive, median of ${rounds} (ms), Chromium on loopback; goal < ${INTERACTIVE_GOAL_MS} ms`);
  console.log('page'.padEnd(26), 'cold'.padStart(8), 'warm'.padStart(8), 'cold/floor'.padStart(11), 'goal'.padStart(8));
  const floorCold = rows[0]!.cold;
  for (const row of rows) {
    const met = Math.max(row.cold, row.warm) < INTERACTIVE_GOAL_MS ? 'met' : 'NOT met';
    console.log(
      row.name.padEnd(26),
      row.cold.toFixed(0).padStart(8),
      row.warm.toFixed(0).padStart(8),
      `${(row.cold / floorCold).toFixed(1)}×`.padStart(11),
      met.padStart(8),
    );
  }
  const floorWhat = 'bare HTML page, plain Node server';
  for (const row of rows.slice(1)) {
    const slowest = Math.max(row.cold, row.warm);
    reportFigure({
      name: `panel ${row.name}, time to interactive (slower of cold and warm)`,
      measured: slowest,
      unit: 'ms',
      floor: floorCold,
      floorWhat,
      goal: { measuredAtMost: INTERACTIVE_GOAL_MS },
    });
  }
} finally {
  await browser.close();
  floor.close();
  await stack.stop();
}

/** Every script the page loads before it is interactive, by size as served and gzipped (what a network carries). */
async function firstPageJavaScript(browser: Browser, url: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const scripts = new Set<string>();
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.add(response.url());
  });
  await interactive(page, url);
  let raw = 0;
  let gzipped = 0;
  for (const script of scripts) {
    const body = Buffer.from(await (await fetch(script)).arrayBuffer());
    raw += body.length;
    gzipped += zlib.gzipSync(body, { level: 9 }).length;
  }
  await context.close();
  return { files: scripts.size, raw, gzipped };
}

/** Cold: a new profile each round (no cache). Warm: the same profile, the page loaded again. */
async function timings(browser: Browser, url: string, cookies: { name: string; value: string; domain: string; path: string }[]) {
  const cold: number[] = [];
  const warm: number[] = [];
  for (let round = 0; round < rounds + 1; round++) {
    const context = await browser.newContext();
    await context.addCookies(cookies);
    const page = await context.newPage();
    const first = await interactive(page, url);
    const second = await interactive(page, url);
    // the first round warms Chromium and the server up
    if (round > 0) {
      cold.push(first);
      warm.push(second);
    }
    await context.close();
  }
  return { cold: median(cold), warm: median(warm) };
}

async function interactive(page: Page, url: string): Promise<number> {
  const started = performance.now();
  await page.goto(url, { waitUntil: 'commit' });
  await page.locator('h1').first().waitFor({ state: 'visible' });
  await page.waitForFunction(() => !(globalThis as any).document.querySelector('.loading'));
  return performance.now() - started;
}
