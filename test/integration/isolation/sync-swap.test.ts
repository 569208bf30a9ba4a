import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../../agent/commands/registry.ts';
import { CommandFailure } from '../../../agent/commands/failure.ts';
import { commandHarness } from '../../helpers/command-harness.ts';
import { dockerSocket } from '../../helpers/runtime-peers.ts';
import { treeSnapshot, writeFileIn } from '../../helpers/tree.ts';
import { until } from '../../helpers/until.ts';

/**
 * The attack on push and clone: while the agent (root) mirrors one environment's files into
 * another, the tenant's PHP keeps swapping directories of either tree for symlinks to a directory
 * outside (here a stand-in for the host's /etc). Whatever the sync then does (finish, or fail),
 * nothing outside may be created, changed or deleted, and nothing outside may be copied in.
 */
const DIRECTORIES = 60;
const FILES_PER_DIRECTORY = 40;
const SECRET = 'host secret: must never be copied into a site';

let dataDir: string;
let outside: string;
/** The swappers' counts, apart from every tree the tests compare. */
let countersDir: string;
const { context } = commandHarness({ docker: new Docker({ socketPath: dockerSocket() }), nodeId: randomUUID(), dataDir: () => dataDir });
const swappers: ChildProcess[] = [];

type Swapper = { child: ChildProcess; /** Links put in place so far (the process writes its count to a file after each). */ swaps(): number };

/**
 * A separate process (so it runs truly beside the agent) that swaps each directory for a symlink to
 * `outside` and back, in a tight loop, until killed. It counts the swaps that put a link in place
 * into a file the test reads (its loop never yields, so it could not answer a signal).
 */
function startLinkSwapper(root: string, names: string[]): Swapper {
  const counter = path.join(countersDir, `swaps-${swappers.length}`);
  fs.writeFileSync(counter, '0');
  const script = `
    const fs = require('fs'), path = require('path');
    const [counter, root, outside, ...names] = process.argv.slice(1);
    const out = fs.openSync(counter, 'r+');
    let swaps = 0;
    for (;;) for (const name of names) {
      const dir = path.join(root, name), away = dir + '.away';
      try { fs.renameSync(dir, away); fs.symlinkSync(outside, dir); fs.writeSync(out, String(++swaps).padStart(12), 0); } catch {}
      for (let i = 0; i < 2000; i++); // a moment with the link in place
      try { fs.unlinkSync(dir); fs.renameSync(away, dir); } catch {}
    }`;
  const child = spawn(process.execPath, ['-e', script, counter, root, outside, ...names], { stdio: 'ignore' });
  swappers.push(child);
  return { child, swaps: () => Number(fs.readFileSync(counter, 'utf8').trim() || 0) };
}

/** Runs the sync rounds one after the other; each round's outcome and the swaps made just before and while it ran. */
async function roundsUnderAttack(
  swapper: Swapper,
  rounds: number,
  payload: { source: string; target: string },
): Promise<Array<{ outcome: string; swaps: number }>> {
  await until(async () => swapper.swaps() > 0, 'the swapper to put its first link in place', 10_000, 10);
  const results: Array<{ outcome: string; swaps: number }> = [];
  for (let round = 0; round < rounds; round++) {
    // the swapper is swapping when the round starts (on a loaded machine it may not have run for a while)
    const before = swapper.swaps();
    await until(async () => swapper.swaps() > before, `the swapper to swap again before round ${round}`, 10_000, 5);
    const outcome = await syncUnderAttack(payload);
    results.push({ outcome, swaps: swapper.swaps() - before });
  }
  console.info(`sync under attack: ${JSON.stringify(results)}`);
  return results;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/**
 * Puts back what a killed swapper left mid-swap: the link removed, the directory renamed back. In
 * the moment between the swapper's rename and its link, a sync may have made the missing directory
 * afresh (as it makes any missing target directory): that one goes too (rmSync never follows a link).
 */
function restore(root: string, names: string[]): void {
  for (const name of names) {
    const dir = path.join(root, name);
    if (fs.existsSync(`${dir}.away`)) {
      fs.rmSync(dir, { force: true, recursive: true });
      fs.renameSync(`${dir}.away`, dir);
    }
  }
}

/** Runs the sync to its end; a refusal or a "gone since" failure is an allowed outcome of the attack. */
async function syncUnderAttack(payload: { source: string; target: string }): Promise<string> {
  try {
    await executeCommand('directory.sync', { ...payload, exclude: ['wp-config.php'] }, context());
    return 'finished';
  } catch (error) {
    if (error instanceof CommandFailure) return `failed: ${error.message}`;
    if ((error as NodeJS.ErrnoException).code) return `failed: ${(error as NodeJS.ErrnoException).code}`;
    throw error;
  }
}

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-isolation-sync-'));
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-isolation-host-'));
  countersDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-isolation-swaps-'));
  // The host directory the links point to: files with the names the sync writes and deletes.
  writeFileIn(outside, 'passwd', SECRET);
  for (let file = 0; file < FILES_PER_DIRECTORY; file++) {
    writeFileIn(outside, `f${file}.php`, SECRET);
    writeFileIn(outside, `stale${file}.php`, SECRET);
  }
  writeFileIn(outside, 'nested/keep.conf', SECRET);
});

afterAll(async () => {
  await Promise.all(swappers.map(stop));
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
  fs.rmSync(countersDir, { recursive: true, force: true });
});

describe('push and clone file sync under a symlink-swapping tenant', () => {
  const names = Array.from({ length: DIRECTORIES }, (_, dir) => `wp-content/d${dir}`);

  it('never writes or deletes outside the target while its directories are swapped for links', async () => {
    const source = path.join(dataDir, 'sites/env-prod/files');
    const target = path.join(dataDir, 'sites/env-stage/files');
    for (const name of names) {
      for (let file = 0; file < FILES_PER_DIRECTORY; file++) {
        writeFileIn(source, `${name}/f${file}.php`, `<?php // production ${name} ${file} ${'x'.repeat(2000)}`);
        // stale files the push deletes (--delete), and older copies it overwrites
        writeFileIn(target, `${name}/stale${file}.php`, 'stale');
        writeFileIn(target, `${name}/f${file}.php`, 'old');
      }
    }
    const before = treeSnapshot(outside, { mtime: true });
    const swapper = startLinkSwapper(target, names);
    const rounds = await roundsUnderAttack(swapper, 3, { source: 'sites/env-prod/files', target: 'sites/env-stage/files' });
    await stop(swapper.child);
    restore(target, names);

    expect(treeSnapshot(outside, { mtime: true })).toEqual(before);
    expect(fs.readFileSync(path.join(outside, 'passwd'), 'utf8')).toBe(SECRET);
    // the attack was real: links were put in place while each round ran (met and refused, or raced past)
    expect(rounds).toHaveLength(3);
    for (const [round, { swaps }] of rounds.entries()) expect(swaps, `swaps during round ${round} (${JSON.stringify(rounds)})`).toBeGreaterThan(0);
    // with the tenant stopped, the push completes and the target equals the source
    expect(await syncUnderAttack({ source: 'sites/env-prod/files', target: 'sites/env-stage/files' })).toBe('finished');
    const copied = treeSnapshot(target, { mtime: true });
    for (const [entry, value] of Object.entries(treeSnapshot(source, { mtime: true }))) expect(copied[entry], entry).toBe(value);
  }, 120_000);

  it('never copies what a swapped source directory points to into the target', async () => {
    const source = path.join(dataDir, 'sites/env-prod/files');
    const target = path.join(dataDir, 'sites/env-clone/files');
    const swapper = startLinkSwapper(source, names);
    const rounds = await roundsUnderAttack(swapper, 3, { source: 'sites/env-prod/files', target: 'sites/env-clone/files' });
    await stop(swapper.child);
    restore(source, names);
    // the source's directories were links, again and again, while each round read it
    for (const [round, { swaps }] of rounds.entries()) expect(swaps, `swaps during round ${round} (${JSON.stringify(rounds)})`).toBeGreaterThan(0);

    const leaked = Object.keys(treeSnapshot(target, { mtime: true })).filter((entry) => {
      const file = path.join(target, entry);
      return fs.lstatSync(file).isFile() && fs.readFileSync(file, 'utf8') === SECRET;
    });
    expect(leaked).toEqual([]);
    // a link may be copied as a link (its text, never its target's content), as rsync -a does
    for (const entry of Object.keys(treeSnapshot(target, { mtime: true }))) {
      const stat = fs.lstatSync(path.join(target, entry));
      if (stat.isSymbolicLink()) expect(fs.readlinkSync(path.join(target, entry))).toBe(outside);
    }
  }, 120_000);
});
