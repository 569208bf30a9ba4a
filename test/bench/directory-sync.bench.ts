/**
 * What push and clone spend on files: the agent's directory.sync (descriptor-based, so a tenant
 * cannot redirect it) on a WordPress-sized tree, against `cp -a` of the same tree in the same run
 * (the floor: a plain copy with no checks and no delete pass). Also the second, no-op run (what a
 * push of an unchanged tree costs) and the most descriptors the agent held open at once.
 *   npm run bench -- test/bench/directory-sync.bench.ts      (BENCH_ROUNDS, default 3: the median shown)
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { executeCommand } from '../../agent/commands/registry.ts';
import type { CommandContext } from '../../agent/commands/types.ts';
import { measured, median } from '../helpers/measure.ts';
import { reportFigure } from './report.ts';

const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-bench-sync-'));
const context: CommandContext = {
  docker: new Docker({ socketPath: '/nonexistent' }),
  dataDir,
  nodeId: randomUUID(),
  allowPull: false,
  signal: new AbortController().signal,
  log: () => {},
  progress: () => {},
  download: () => Promise.reject(new Error('no control plane')),
};

/** About WordPress core's shape: ~3,300 files in ~230 directories up to 6 deep, 45 MB. */
function writeCoreShapedTree(root: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (let top = 0; top < 12; top++) {
    for (let mid = 0; mid < 6; mid++) {
      for (let leaf = 0; leaf < 3; leaf++) {
        const dir = path.join(root, `wp-part${top}`, `m${mid}`, `l${leaf}`, 'deep', 'er');
        fs.mkdirSync(dir, { recursive: true });
        for (let file = 0; file < 15; file++) {
          const content = Buffer.alloc(1000 + ((top * 31 + mid * 7 + leaf * 3 + file) % 40) * 700, 120);
          fs.writeFileSync(path.join(dir, `f${file}.php`), content);
          files += 1;
          bytes += content.length;
        }
      }
    }
  }
  return { files, bytes };
}

let maxDescriptors = 0;
const sampler = setInterval(() => {
  maxDescriptors = Math.max(maxDescriptors, fs.readdirSync('/proc/self/fd').length);
}, 2);

const results = { 'cp -a (baseline)': [] as number[], 'directory.sync, first': [] as number[], 'directory.sync, unchanged': [] as number[] };
try {
  const shape = writeCoreShapedTree(path.join(dataDir, 'source'));
  const idleDescriptors = fs.readdirSync('/proc/self/fd').length;
  for (let round = 0; round < rounds; round++) {
    execFileSync('sync');
    results['cp -a (baseline)'].push((await measured(() => execFileSync('cp', ['-a', path.join(dataDir, 'source'), path.join(dataDir, `cp-${round}`)]))).ms);
    execFileSync('sync');
    const payload = { source: 'source', target: `synced-${round}`, exclude: [], delete: true };
    results['directory.sync, first'].push((await measured(() => executeCommand('directory.sync', payload, context))).ms);
    results['directory.sync, unchanged'].push((await measured(() => executeCommand('directory.sync', payload, context))).ms);
  }
  const baseline = median(results['cp -a (baseline)']);
  console.log(`directory.sync on ${shape.files} files (${(shape.bytes / 1e6).toFixed(1)} MB), median of ${rounds}:`);
  for (const [name, values] of Object.entries(results)) {
    console.log(`  ${name.padEnd(28)} ${median(values).toFixed(0).padStart(6)} ms   ${(median(values) / baseline).toFixed(2)}x cp -a`);
  }
  console.log(`  descriptors open at most: ${maxDescriptors} (${idleDescriptors} before the first run)`);
  // goals: within 2x a plain copy that checks nothing; an unchanged tree costs well under a copy
  const floorWhat = 'cp -a of the same tree';
  reportFigure({
    name: 'directory.sync, first (median)',
    measured: median(results['directory.sync, first']),
    unit: 'ms',
    floor: baseline,
    floorWhat,
    goal: { ratioAtMost: 2 },
  });
  reportFigure({
    name: 'directory.sync, unchanged (median)',
    measured: median(results['directory.sync, unchanged']),
    unit: 'ms',
    floor: baseline,
    floorWhat,
    goal: { ratioAtMost: 0.5 },
  });
} finally {
  clearInterval(sampler);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
