/**
 * What a backup costs in time and space (issue 12): restic 0.18 in the backup image, as Berth runs it
 * (one snapshot of the files and the database dump), on a WordPress-sized tree, against
 * `tar | zstd -3 -T0` of the same tree in the same container and the same run (the floor: one
 * compressed stream, no chunking, hashing, encryption or index). Also what later backups cost (the
 * unchanged tree, then 1% of the files changed: what a daily backup stores) and a restore of the latest
 * snapshot against `zstd -d | tar -x` of the baseline's archive. Every command runs by exec in one
 * container, each timed from here, so the engine's start-up is never counted; an empty exec is shown
 * for scale.
 *   npm run bench -- test/bench/backup-throughput.bench.ts      (BENCH_ROUNDS, default 3: the median shown)
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measured, median } from '../helpers/measure.ts';
import { resticSummary } from '../helpers/restic-reader.ts';
import { testStateDir, wordpressImages } from '../helpers/runtime-peers.ts';
import { docker, execChecked } from '../helpers/site-node.ts';

const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const loadAtStart = os.loadavg()[0]!;
fs.mkdirSync(path.join(testStateDir(), 'bench'), { recursive: true });
const home = fs.mkdtempSync(path.join(testStateDir(), 'bench', 'backup-throughput-'));
const dirs = { data: path.join(home, 'data'), repo: path.join(home, 'repo'), out: path.join(home, 'out') };
const resticEnv = { RESTIC_PASSWORD: randomBytes(16).toString('hex') };

/** Deterministic, so every run backs up the same bytes (xorshift32). */
function prng(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

const random = prng(12);
const vocabulary = Array.from({ length: 3000 }, () =>
  Array.from({ length: 2 + Math.floor(random() * 3) }, () => 'bcdfghklmnprstvwz'[Math.floor(random() * 17)]! + 'aeiou'[Math.floor(random() * 5)]!).join(''),
);
// a few words are most of any text (Zipf-like): zstd compresses it about as well as PHP source
const word = () => vocabulary[Math.floor(vocabulary.length * random() ** 3)]!;

/** Code-like text of about `bytes` bytes; `style` 'sql' for the dump's INSERT lines. */
function text(bytes: number, style: 'php' | 'sql'): Buffer {
  const lines: string[] = [];
  let length = 0;
  let row = 0;
  while (length < bytes) {
    const line =
      style === 'sql'
        ? `INSERT INTO wp_posts VALUES (${++row},1,'2026-11-${String(1 + (row % 28)).padStart(2, '0')}','${Array.from({ length: 12 }, word).join(' ')}','${word()}-${word()}','publish');\n`
        : `\t$${word()}_${word()} = ${word()}_${word()}( '${word()}', $${word()} ); // ${word()} ${word()} ${word()}\n`;
    lines.push(line);
    length += line.length;
  }
  return Buffer.from(lines.join('')).subarray(0, bytes);
}

/** Every fourth file an upload (random bytes, as images are), the rest PHP/CSS/JS-like text. */
function fileContent(index: number): Buffer {
  const size = 2_000 + ((index * 7919) % 17) * 1_100;
  return index % 4 === 3 ? randomBytes(size * 2 + 1_000) : text(size, 'php');
}

type Tree = { files: string[]; directories: number; bytes: number; randomBytes: number; dumpBytes: number };

/** About WordPress's shape: ~3,300 files in ~230 directories, ~45 MB, and a ~20 MB database dump beside them. */
function writeSiteAndDump(root: string): Tree {
  const tree: Tree = { files: [], directories: 0, bytes: 0, randomBytes: 0, dumpBytes: 0 };
  const write = (file: string, content: Buffer, isRandom: boolean) => {
    fs.writeFileSync(file, content);
    tree.files.push(file);
    tree.bytes += content.length;
    if (isRandom) tree.randomBytes += content.length;
  };
  for (let top = 0; top < 12; top++) {
    for (let sub = -1; sub < 18; sub++) {
      const dir = sub < 0 ? path.join(root, 'files', `wp-part${top}`) : path.join(root, 'files', `wp-part${top}`, `s${sub}`);
      fs.mkdirSync(dir, { recursive: true });
      tree.directories += 1;
      for (let file = 0; file < (sub < 0 ? 5 : 15); file++) {
        const index = tree.files.length;
        write(path.join(dir, `f${file}.${index % 4 === 3 ? 'jpg' : 'php'}`), fileContent(index), index % 4 === 3);
      }
    }
  }
  const dump = text(20_000_000, 'sql');
  fs.writeFileSync(path.join(root, 'database.sql'), dump);
  tree.dumpBytes = dump.length;
  return tree;
}

/** Rewrites one file in a hundred (text and uploads alike) with new content of its kind, as an update does. */
function changeOnePercent(tree: Tree, round: number): number {
  let changed = 0;
  for (let index = round % 101; index < tree.files.length; index += 101) {
    fs.writeFileSync(tree.files[index]!, fileContent(index + tree.files.length * (round + 1)));
    changed += 1;
  }
  return changed;
}

function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const results = {
  emptyExec: [] as number[],
  tarZstd: [] as number[],
  archiveBytes: [] as number[],
  firstBackup: [] as number[],
  repositoryAfterFirst: [] as number[],
  unchangedBackup: [] as number[],
  unchangedAdded: [] as number[],
  changedFiles: [] as number[],
  changedBackup: [] as number[],
  changedAdded: [] as number[],
  changedAddedPacked: [] as number[],
  untar: [] as number[],
  restore: [] as number[],
};

let container: string | undefined;
try {
  for (const dir of Object.values(dirs)) fs.mkdirSync(dir, { recursive: true });
  const tree = writeSiteAndDump(dirs.data);
  const image = wordpressImages().backup;
  // the limits Berth gives a backup container (workers/backups/restic.ts), so restic works within them here too
  const created = await docker.createContainer({
    name: `berth-bench-backup-${path.basename(home)}`,
    Image: image,
    Labels: { 'berth.test': 'backup-throughput-bench' },
    HostConfig: { Binds: [`${dirs.data}:/data:ro`, `${dirs.repo}:/repo`, `${dirs.out}:/out`], Memory: 1024 ** 3, PidsLimit: 256 },
  });
  container = created.id;
  await created.start();
  const id = container;

  /** `cmd` run by bash in the container, timed; dirty pages are written out first, so no step pays for the one before it. */
  async function timedExec(cmd: string, env: Record<string, string> = {}): Promise<{ ms: number; stdout: string }> {
    execFileSync('sync');
    const { ms, value: stdout } = await measured(() => execChecked(id, ['bash', '-c', `set -euo pipefail; ${cmd}`], env));
    return { ms, stdout };
  }

  for (let round = 0; round < rounds; round++) {
    const env = { ...resticEnv, RESTIC_REPOSITORY: `/repo/round-${round}` };
    results.emptyExec.push((await timedExec('true')).ms);

    // each round its own repository, so every first backup starts empty; outputs are kept until the
    // end, so no deletion's writeback lands in a timed step
    results.tarZstd.push((await timedExec(`tar -cf - /data 2>/dev/null | zstd -q -3 -T0 > /out/${round}.tar.zst`)).ms);
    results.archiveBytes.push(fs.statSync(path.join(dirs.out, `${round}.tar.zst`)).size);

    await timedExec('restic init --json', env);
    const first = await timedExec('restic backup --json --host bench /data', env);
    results.firstBackup.push(first.ms);
    results.repositoryAfterFirst.push(bytesUnder(path.join(dirs.repo, `round-${round}`)));

    const unchanged = await timedExec('restic backup --json --host bench /data', env);
    results.unchangedBackup.push(unchanged.ms);
    results.unchangedAdded.push(resticSummary(unchanged.stdout).data_added);

    results.changedFiles.push(changeOnePercent(tree, round));
    const changed = await timedExec('restic backup --json --host bench /data', env);
    const changedSummary = resticSummary(changed.stdout);
    results.changedBackup.push(changed.ms);
    results.changedAdded.push(changedSummary.data_added);
    results.changedAddedPacked.push(changedSummary.data_added_packed ?? NaN);

    results.untar.push((await timedExec(`mkdir /out/untar-${round} && zstd -q -d < /out/${round}.tar.zst | tar -xf - -C /out/untar-${round}`)).ms);
    // as Berth's restore runs it (workers/backups/restore-scripts.ts: --no-lock)
    results.restore.push((await timedExec(`restic restore --no-lock latest --target /out/restored-${round}`, env)).ms);
    // the archive is of the tree before the change, the latest snapshot after it
    const [restored, current] = [bytesUnder(path.join(dirs.out, `restored-${round}`)), bytesUnder(dirs.data)];
    if (restored !== current) throw new Error(`the restore holds ${restored} bytes, the tree ${current}`);
  }

  const input = tree.bytes + tree.dumpBytes;
  const tarZstd = median(results.tarZstd);
  const untar = median(results.untar);
  const row = (label: string, values: number[], rate: boolean, rest = '') => {
    const ms = median(values);
    const throughput = rate ? `${(input / 1e6 / (ms / 1000)).toFixed(1).padStart(6)} MB/s` : ''.padStart(11);
    console.log(`  ${label.padEnd(38)} ${ms.toFixed(0).padStart(6)} ms  ${throughput}   ${rest}`.trimEnd());
  };
  const times = (values: number[], baseline: number, name: string) => `${(median(values) / baseline).toFixed(2)}x ${name}`;
  console.log(
    `backup-throughput: ${tree.files.length} files in ${tree.directories + 1} directories, ${mb(tree.bytes)} (${mb(tree.randomBytes)} random bytes) + a ${mb(tree.dumpBytes)} dump = ${mb(input)}; ` +
      `median of ${rounds}, one container of ${image} (${os.cpus().length} cores, load average ${loadAtStart.toFixed(1)} at the start)`,
  );
  row('an empty exec', results.emptyExec, false);
  row('tar | zstd -3 -T0 (baseline)', results.tarZstd, true, `${mb(input)} in, ${mb(median(results.archiveBytes))} out`);
  row(
    'restic backup, first',
    results.firstBackup,
    true,
    `${times(results.firstBackup, tarZstd, 'tar | zstd')}   repository ${mb(median(results.repositoryAfterFirst))}`,
  );
  row(
    'restic backup, unchanged',
    results.unchangedBackup,
    false,
    `${times(results.unchangedBackup, tarZstd, 'tar | zstd')}   added ${median(results.unchangedAdded)} bytes`,
  );
  row(
    `restic backup, ${median(results.changedFiles)} files (1%) changed`,
    results.changedBackup,
    false,
    `${times(results.changedBackup, tarZstd, 'tar | zstd')}   added ${mb(median(results.changedAdded))} (${mb(median(results.changedAddedPacked))} packed)`,
  );
  row('zstd -d | tar -x (baseline)', results.untar, true);
  row('restic restore, latest', results.restore, true, times(results.restore, untar, 'zstd -d | tar -x'));
  // the goal for a backup (test/bench/backup-operation.bench.ts measures the whole operation): floor / measured >= 0.8
  const ratio = tarZstd / median(results.firstBackup);
  console.log(`  restic backup, first: ratio ${ratio.toFixed(2)} (tar | zstd / restic), goal >= 0.8, met ${ratio >= 0.8 ? 'yes' : 'no'}`);
} finally {
  if (container) await docker.getContainer(container).remove({ force: true, v: true });
  fs.rmSync(home, { recursive: true, force: true });
}
