/**
 * What an upload costs the API's memory (issue 11: the body is streamed, not held 3x). Uploads a
 * BENCH_UPLOAD_MIB (default 48) MiB zip through `POST /v1/uploads` to the API running in this
 * process and, in the same run, through a stand-in for the old path (express.raw, then SHA-256,
 * then one bytea insert) on a port of its own. For each it prints, as ratios to the body's size:
 * the peak growth of resident set size and of Buffer memory (external + array buffers, garbage
 * included) sampled every 10 ms, the peak of Buffer bytes (array buffers) still held after a forced
 * garbage collection (sampled every 100 ms, in a separate, slower run), and the throughput. The
 * client sends from one reused 256 KiB buffer, so it adds almost nothing.
 *   npm run bench -- test/bench/upload-memory.bench.ts      (BENCH_UPLOAD_MIB, BENCH_UPLOAD_RUNS default 3)
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import express from 'express';
import { ensureDatabaseExists, migrateToLatest } from '../../shared/db/migrate.ts';
import { createDb } from '../../shared/db/knex.ts';
import { accessTokenOf, createOwner } from '../helpers/factories.ts';
import { testDatabaseUrl } from '../helpers/services.ts';
import { startStack } from '../helpers/stack.ts';
import { reportFigure } from './report.ts';

const MiB = 1024 * 1024;
const bodyMib = Number(process.env.BENCH_UPLOAD_MIB ?? 48);
const runs = Number(process.env.BENCH_UPLOAD_RUNS ?? 3);
const PART = 256 * 1024;
// A forced collection before each sample shows what is held, not garbage waiting for the collector.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const db = createDb(testDatabaseUrl, { poolMax: 1 });
await ensureDatabaseExists(testDatabaseUrl);
await migrateToLatest(db);
await db.destroy();

const stack = await startStack({
  workers: false,
  env: { UPLOAD_MAX_BYTES: String((bodyMib + 1) * MiB), UPLOAD_QUOTA_BYTES: String((bodyMib + 1) * MiB * (2 * runs + 2)), UPLOAD_QUOTA_COUNT: '1000' },
});

// The old path, for comparison: the whole body in memory, hashed, inserted as one value.
const OLD_TABLE = 'bench_buffered_uploads';
await stack.ctx.db.schema.dropTableIfExists(OLD_TABLE);
await stack.ctx.db.schema.createTable(OLD_TABLE, (table) => {
  table.increments('id');
  table.text('sha256');
  table.binary('content');
});
const old = express();
old.post('/uploads', express.raw({ type: 'application/zip', limit: (bodyMib + 1) * MiB }), async (req, res) => {
  const body = req.body as Buffer;
  await stack.ctx.db(OLD_TABLE).insert({ sha256: createHash('sha256').update(body).digest('hex'), content: body });
  res.status(201).json({ size_bytes: body.length });
});
const oldServer = http.createServer(old);
await new Promise<void>((resolve) => oldServer.listen(0, '127.0.0.1', resolve));
const oldUrl = `http://127.0.0.1:${(oldServer.address() as AddressInfo).port}/uploads`;

function buffers(): number {
  const usage = process.memoryUsage();
  return usage.external + usage.arrayBuffers;
}

/** A zip of `size` bytes POSTed in parts to `url` as it is written (never held whole); the answer's status. */
async function sendZipOfSize(url: string, token: string, size: number): Promise<number> {
  const part = Buffer.alloc(PART, 0x61);
  const head = Buffer.from(part);
  head.write('PK\x03\x04', 'latin1');
  const request = http.request(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/zip', 'content-length': size },
  });
  const answered = new Promise<number>((resolve, reject) => {
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode!));
    });
    request.on('error', reject);
  });
  for (let offset = 0; offset < size; offset += PART) {
    const slice = (offset === 0 ? head : part).subarray(0, Math.min(PART, size - offset));
    if (!request.write(slice)) await new Promise((resolve) => request.once('drain', resolve));
  }
  request.end();
  return answered;
}

/** Prints each run; returns the worst run's peak Buffer memory growth and the bytes held after GC, in MiB. */
async function measure(label: string, url: string, token: string, size: number): Promise<{ bufferGrowth: number; held: number }> {
  let worstBufferGrowth = 0;
  for (let run = 1; run <= runs; run++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const idleRss = process.memoryUsage().rss;
    const idleBuffers = buffers();
    let peakRss = idleRss;
    let peakBuffers = idleBuffers;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      peakBuffers = Math.max(peakBuffers, buffers());
    }, 10);
    const started = process.hrtime.bigint();
    const status = await sendZipOfSize(url, token, size);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    clearInterval(sampler);
    if (status !== 201) throw new Error(`${label} answered ${status}`);
    const rssGrowth = (peakRss - idleRss) / MiB;
    const bufferGrowth = (peakBuffers - idleBuffers) / MiB;
    worstBufferGrowth = Math.max(worstBufferGrowth, bufferGrowth);
    console.log(
      `  ${label} run ${run}: peak RSS growth ${rssGrowth.toFixed(1)} MiB (${(rssGrowth / bodyMib).toFixed(2)}x the body), ` +
        `peak Buffer memory growth ${bufferGrowth.toFixed(1)} MiB (${(bufferGrowth / bodyMib).toFixed(2)}x), ` +
        `${seconds.toFixed(2)} s, ${(bodyMib / seconds).toFixed(1)} MiB/s`,
    );
  }
  gc();
  const idle = process.memoryUsage().arrayBuffers;
  let peakHeld = idle;
  const sampler = setInterval(() => {
    gc();
    peakHeld = Math.max(peakHeld, process.memoryUsage().arrayBuffers);
  }, 100);
  const status = await sendZipOfSize(url, token, size);
  clearInterval(sampler);
  if (status !== 201) throw new Error(`${label} answered ${status}`);
  const held = (peakHeld - idle) / MiB;
  console.log(`  ${label} held: peak Buffer bytes still held after a forced GC ${held.toFixed(2)} MiB (${(held / bodyMib).toFixed(3)}x the body)`);
  return { bufferGrowth: worstBufferGrowth, held };
}

try {
  const owner = await createOwner(stack.ctx.db);
  const token = await accessTokenOf(stack.client(), owner);
  const size = bodyMib * MiB;
  const streamedUrl = `${stack.api.url}/v1/uploads?filename=bench.zip`;
  // warm up: connections, code paths
  await sendZipOfSize(streamedUrl, token, 2 * MiB);
  await sendZipOfSize(oldUrl, token, 2 * MiB);

  console.log(`upload memory: a ${bodyMib} MiB body, ${runs} runs each (baseline: the body's size)`);
  const streamed = await measure('streamed (POST /v1/uploads)', streamedUrl, token, size);
  await measure('buffered (the old path)', oldUrl, token, size);
  // the floor is the body itself: a path that holds it once shows 1 held after GC (the old path does);
  // a streamed one holds a bounded few chunks (goal: 1/20 of this body), and its garbage at its peak
  // (allocated, not yet collected) stays under one body's worth
  const floorWhat = "the body's size";
  reportFigure({
    name: 'upload, peak Buffer memory growth (worst run)',
    measured: streamed.bufferGrowth,
    unit: 'MiB',
    floor: bodyMib,
    floorWhat,
    goal: { ratioAtMost: 1 },
  });
  reportFigure({
    name: 'upload, Buffer bytes held after GC (peak)',
    measured: streamed.held,
    unit: 'MiB',
    floor: bodyMib,
    floorWhat,
    goal: { ratioAtMost: 0.05 },
  });
} finally {
  await new Promise((resolve) => oldServer.close(resolve));
  await stack.ctx.db.schema.dropTableIfExists(OLD_TABLE);
  await stack.stop();
}
