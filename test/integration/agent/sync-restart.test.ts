import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandHarness } from '../../helpers/command-harness.ts';
import { dockerSocket, testBaseImage } from '../../helpers/runtime-peers.ts';
import { treeSnapshot, writeFileIn } from '../../helpers/tree.ts';

/**
 * directory.sync against real trees in a temporary data directory (as root, like the agent on a
 * node, so owners are kept), and container.restart against podman's Docker Engine API; both the
 * way the agent runs commands: payload parsed by its schema, result checked by the protocol's.
 */
const docker = new Docker({ socketPath: dockerSocket() });
const image = testBaseImage();
const nodeId = randomUUID();
const suffix = randomBytes(4).toString('hex');
const isRoot = process.getuid?.() === 0;
let dataDir: string;
let outside: string;
const { logs, run, failure } = commandHarness({ docker, nodeId, dataDir: () => dataDir });

/** What a treeSnapshot entry is, from the type bits of its mode ('other': a fifo, a socket, a device). */
function kindOf(entry: string): 'dir' | 'file' | 'link' | 'other' {
  const type = Number(entry.split(' ')[0]) & fs.constants.S_IFMT;
  return type === fs.constants.S_IFDIR ? 'dir' : type === fs.constants.S_IFREG ? 'file' : type === fs.constants.S_IFLNK ? 'link' : 'other';
}

/** The same entry: type, content or link text, mode, owner, and mtime (within the 1 ms the sync allows). */
function expectSameEntry(actual: string | undefined, expected: string, where: string): void {
  expect(actual, where).toBeDefined();
  // a treeSnapshot entry with its mtime: "<mode> <uid>:<gid> <mtimeMs> <content or link text>"
  const parts = (entry: string) => {
    const [mode, owner, mtimeMs, ...content] = entry.split(' ');
    return { mtimeMs: Number(mtimeMs), rest: [mode, owner, ...content].join(' ') };
  };
  const { mtimeMs: actualMtime, rest: actualRest } = parts(actual!);
  const { mtimeMs: expectedMtime, rest: expectedRest } = parts(expected);
  expect(actualRest, where).toEqual(expectedRest);
  expect(Math.abs(actualMtime - expectedMtime), `${where} mtime`).toBeLessThan(1);
}

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-sync-data-'));
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-sync-outside-'));
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'not yours');
});

afterAll(async () => {
  const containers = await docker.listContainers({ all: true, filters: { label: [`berth.node=${nodeId}`] } });
  const strangers = await docker.listContainers({ all: true, filters: { label: [`berth.test=${suffix}`] } });
  await Promise.all([...containers, ...strangers].map((container) => docker.getContainer(container.Id).remove({ force: true })));
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

describe('directory.sync', () => {
  const source = () => path.join(dataDir, 'sites/prod/files');
  const target = () => path.join(dataDir, 'sites/stage/files');
  // an old mtime with a fraction of a millisecond, which a sloppy copy would round away
  const past = 1_600_000_000.123456;
  const exclude = ['wp-config.php', 'wp-content/cache', 'wp-content/upgrade'];
  const sync = (options: { delete?: boolean } = {}) => run('directory.sync', { source: 'sites/prod/files', target: 'sites/stage/files', exclude, ...options });

  it('mirrors a tree into the existing target in place: files, directories, links as links, modes and mtimes; excluded paths untouched', async () => {
    const src = source();
    writeFileIn(src, 'index.php', '<?php require "wp-blog-header.php";', { mode: 0o640, mtime: past });
    writeFileIn(src, 'wp-config.php', '<?php // production secrets', { mtime: past });
    writeFileIn(src, 'wp-content/plugins/hello/hello.php', '<?php // hello', { mtime: past + 10 });
    writeFileIn(src, 'wp-content/uploads/2024/photo.bin', randomBytes(300 * 1024), { mtime: past + 20 });
    writeFileIn(src, 'wp-content/cache/page.html', 'cached in production');
    writeFileIn(src, 'bin/run.sh', '#!/bin/sh\necho hi\n', { mode: 0o750 });
    fs.mkdirSync(path.join(src, 'wp-content/empty'), { mode: 0o700 });
    fs.chmodSync(path.join(src, 'wp-content/empty'), 0o700);
    fs.symlinkSync('wp-content/uploads/2024', path.join(src, 'latest'));
    fs.symlinkSync(outside, path.join(src, 'escape'));
    fs.symlinkSync('nowhere', path.join(src, 'dangling'));
    execFileSync('mkfifo', [path.join(src, 'queue.fifo')]);
    fs.utimesSync(path.join(src, 'wp-content/uploads'), past, past);

    // The target: a running container's bind mount, with its own config and leftovers of its own.
    const dst = target();
    writeFileIn(dst, 'wp-config.php', '<?php // staging secrets');
    writeFileIn(dst, 'wp-content/cache/keep.html', 'staging cache');
    writeFileIn(dst, 'wp-content/upgrade/.lock', 'only in the target, excluded: kept');
    writeFileIn(dst, 'old-plugin/old.php', 'stale');
    writeFileIn(dst, 'notes.txt', 'stale');
    writeFileIn(dst, 'wp-content/plugins', 'a file where the source has a directory');
    fs.mkdirSync(path.join(dst, 'index.php/inside'), { recursive: true }); // a directory where the source has a file
    fs.symlinkSync('/etc/passwd', path.join(dst, 'bin')); // a link where the source has a directory: replaced, never followed
    const rootInode = fs.statSync(dst).ino;
    const before = treeSnapshot(src, { mtime: true });
    const outsideBefore = treeSnapshot(outside, { mtime: true });

    const result = await run('directory.sync', {
      source: 'sites/prod/files',
      target: 'sites/stage/files',
      exclude: ['wp-config.php', 'wp-content/cache/', './wp-content/upgrade'],
    });

    const considered = Object.keys(before).filter(
      (entry) => entry !== 'wp-config.php' && entry !== 'wp-content/cache' && !entry.startsWith('wp-content/cache/'),
    );
    // `wp-content` already existed as a directory (unchanged); the fifo is never copied
    expect(result).toEqual({
      files: considered.length,
      copied: considered.length - 2,
      skipped: 2,
      deleted: 2,
      bytes_copied: [...considered]
        .filter((entry) => kindOf(before[entry]!) === 'file')
        .reduce((sum, entry) => sum + fs.statSync(path.join(src, entry)).size, 0),
    });
    const after = treeSnapshot(dst, { mtime: true });
    for (const entry of considered) {
      if (kindOf(before[entry]!) === 'other') expect(Object.hasOwn(after, entry), entry).toBe(false);
      else expectSameEntry(after[entry], before[entry]!, entry);
    }
    expectSameEntry(after['wp-content/uploads'], before['wp-content/uploads']!, 'a directory keeps its mtime after its children were written');
    expect(Object.keys(after).sort()).toEqual(
      [
        ...considered.filter((entry) => kindOf(before[entry]!) !== 'other'),
        'wp-config.php',
        'wp-content/cache',
        'wp-content/cache/keep.html',
        'wp-content/upgrade',
        'wp-content/upgrade/.lock',
      ].sort(),
    );
    // excluded: the target's own config and cache kept, the source's neither copied nor used
    expect(fs.readFileSync(path.join(dst, 'wp-config.php'), 'utf8')).toBe('<?php // staging secrets');
    expect(fs.readFileSync(path.join(dst, 'wp-content/cache/keep.html'), 'utf8')).toBe('staging cache');
    expect(fs.readFileSync(path.join(dst, 'wp-content/upgrade/.lock'), 'utf8')).toBe('only in the target, excluded: kept');
    // links copied as links with the same text, never followed: nothing outside was read into the copy or changed
    expect(fs.readlinkSync(path.join(dst, 'escape'))).toBe(outside);
    expect(fs.readlinkSync(path.join(dst, 'latest'))).toBe('wp-content/uploads/2024');
    expect(fs.readlinkSync(path.join(dst, 'dangling'))).toBe('nowhere');
    expect(treeSnapshot(outside, { mtime: true })).toEqual(outsideBefore);
    expect(fs.readFileSync('/etc/passwd', 'utf8')).toMatch(/^root:/);
    // the same directory, updated in place (a bind mount of it would still see it); no temporary file left
    expect(fs.statSync(dst).ino).toBe(rootInode);
    expect(Object.keys(after).filter((entry) => entry.endsWith('.tmp'))).toEqual([]);
    expect(treeSnapshot(src, { mtime: true })).toEqual(before);
    expect(logs.some((log) => /synced sites\/prod\/files to sites\/stage\/files: \d+ entries, \d+ copied/.test(log.line))).toBe(true);
    expect(logs.some((log) => log.line.includes('skipped queue.fifo'))).toBe(true);
  });

  it('copies nothing the second time, and leaves the same tree', async () => {
    const before = treeSnapshot(target(), { mtime: true });
    const result = await sync();
    expect(result.copied).toBe(0);
    expect(result.deleted).toBe(0);
    expect(result.bytes_copied).toBe(0);
    expect(result.skipped).toBe(result.files);
    expect(treeSnapshot(target(), { mtime: true })).toEqual(before);
  });

  it('decides by size and mtime like rsync: same size and mtime is skipped, a new mtime or size is copied; a changed mode is copied', async () => {
    const src = source();
    const dst = target();
    // same size, same mtime, other bytes: the quick check says unchanged (what rsync does without --checksum)
    writeFileIn(src, 'index.php', '<?php require "wp-blog-header.PHP";', { mode: 0o640, mtime: past });
    expect((await sync()).copied).toBe(0);
    expect(fs.readFileSync(path.join(dst, 'index.php'), 'utf8')).toBe('<?php require "wp-blog-header.php";');
    // a new mtime: copied
    fs.utimesSync(path.join(src, 'index.php'), past + 1, past + 1);
    const touched = await sync();
    expect(touched).toMatchObject({ copied: 1, bytes_copied: fs.statSync(path.join(src, 'index.php')).size });
    expect(fs.readFileSync(path.join(dst, 'index.php'), 'utf8')).toBe('<?php require "wp-blog-header.PHP";');
    // a new mode only
    fs.chmodSync(path.join(src, 'bin/run.sh'), 0o700);
    expect((await sync()).copied).toBe(1);
    expect(fs.statSync(path.join(dst, 'bin/run.sh')).mode & 0o7777).toBe(0o700);
  });

  it.runIf(isRoot)('keeps owners (uid and gid) of files, directories and links when running as root', async () => {
    const src = source();
    fs.chownSync(path.join(src, 'wp-content/plugins/hello/hello.php'), 33, 33);
    fs.chownSync(path.join(src, 'wp-content/uploads'), 33, 33);
    fs.lchownSync(path.join(src, 'latest'), 33, 33);
    expect((await sync()).copied).toBe(1); // the file; a directory's or a link's owner is set in place
    for (const entry of ['wp-content/plugins/hello/hello.php', 'wp-content/uploads', 'latest']) {
      const stat = fs.lstatSync(path.join(target(), entry));
      expect([stat.uid, stat.gid], entry).toEqual([33, 33]);
    }
    expect(fs.lstatSync(path.join(target(), 'index.php')).uid).toBe(0);
  });

  it('with delete: false keeps what the source lacks, and still replaces an entry whose type changed', async () => {
    const dst = target();
    writeFileIn(dst, 'extra.txt', 'only in the target');
    fs.rmSync(path.join(dst, 'latest'));
    fs.mkdirSync(path.join(dst, 'latest')); // a directory where the source has a link
    const result = await sync({ delete: false });
    expect(result).toMatchObject({ deleted: 0, copied: 1 });
    expect(fs.readFileSync(path.join(dst, 'extra.txt'), 'utf8')).toBe('only in the target');
    expect(fs.readlinkSync(path.join(dst, 'latest'))).toBe('wp-content/uploads/2024');
    expect((await sync()).deleted).toBe(1);
    expect(fs.existsSync(path.join(dst, 'extra.txt'))).toBe(false);
  });

  it("creates a missing target with the source's mode", async () => {
    fs.chmodSync(path.join(source(), 'wp-content'), 0o750);
    const result = await run('directory.sync', { source: 'sites/prod/files/wp-content', target: 'sites/dev/files/wp-content' });
    expect(result).toMatchObject({ files: 9, copied: 9, skipped: 0, deleted: 0 });
    expect(fs.statSync(path.join(dataDir, 'sites/dev/files/wp-content')).mode & 0o7777).toBe(0o750);
    expect(fs.statSync(path.join(dataDir, 'sites/dev/files/wp-content/plugins/hello/hello.php')).isFile()).toBe(true);
    expect(fs.statSync(path.join(dataDir, 'sites/dev/files/wp-content/empty')).mode & 0o7777).toBe(0o700);
  });

  it('refuses .., overlapping or identical paths and a missing source, for good, before touching anything', async () => {
    fs.symlinkSync(outside, path.join(dataDir, 'out-link'));
    writeFileIn(dataDir, 'plain.txt', 'not a directory');
    const refusals = [
      [{ source: '../etc', target: 'sites/x' }, /invalid directory\.sync payload: source/],
      [{ source: 'sites/prod/files', target: 'sites/../../x' }, /invalid directory\.sync payload: target/],
      [{ source: 'sites/prod/files', target: 'sites/x', exclude: ['../wp-config.php'] }, /invalid directory\.sync payload: exclude/],
      [{ source: 'sites/prod/files', target: 'sites/x', exclude: ['/etc'] }, /invalid directory\.sync payload: exclude/],
      [{ source: 'sites/prod/files', target: 'sites/prod/files' }, /are the same directory/],
      [{ source: 'sites/prod/files', target: 'sites/prod/files/wp-content/copy' }, /overlap/],
      [{ source: 'sites/prod/files/wp-content', target: 'sites/prod' }, /overlap/],
      [{ source: 'sites/missing/files', target: 'sites/y' }, /the source sites\/missing\/files does not exist/],
      [{ source: 'plain.txt', target: 'sites/y' }, /plain\.txt exists and is not a directory/],
      [{ source: 'out-link', target: 'sites/y' }, /"out-link" refused: it is or goes through a symlink/],
      [{ source: 'sites/prod/files', target: 'out-link/planted' }, /"out-link" refused: it is or goes through a symlink/],
      [{ source: 'journal', target: 'sites/y' }, /agent's own state/],
    ] as const;
    for (const [payload, message] of refusals) {
      const refused = await failure('directory.sync', payload);
      expect(refused.permanent, JSON.stringify(payload)).toBe(true);
      expect(refused.message, JSON.stringify(payload)).toMatch(message);
    }
    expect(fs.existsSync(path.join(dataDir, 'sites/x'))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'sites/y'))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'sites/prod/files/wp-content/copy'))).toBe(false);
    expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
  });

  it('stops when the command is aborted, with a failure a retry can fix', async () => {
    const controller = new AbortController();
    controller.abort(new Error('deadline exceeded'));
    const stopped = await failure('directory.sync', { source: 'sites/prod/files', target: 'sites/aborted' }, { signal: controller.signal });
    expect(stopped.permanent).toBe(false);
    expect(stopped.message).toMatch(/stopped before it finished \(deadline exceeded\)/);
  });

  it('mirrors a WordPress-sized tree (3,000 files), and the second run is a no-op', async () => {
    const root = path.join(dataDir, 'big/source');
    for (let dir = 0; dir < 100; dir++) {
      for (let file = 0; file < 30; file++) writeFileIn(root, `wp-includes/d${dir}/f${file}.php`, `<?php // ${dir}/${file} ${'x'.repeat(file * 40)}`);
    }
    const first = await run('directory.sync', { source: 'big/source', target: 'big/target' });
    expect(first).toMatchObject({ files: 3101, copied: 3101, deleted: 0 });
    const second = await run('directory.sync', { source: 'big/source', target: 'big/target' });
    expect(second).toMatchObject({ files: 3101, copied: 0, skipped: 3101 });
    const copy = treeSnapshot(path.join(dataDir, 'big/target'), { mtime: true });
    const original = treeSnapshot(root, { mtime: true });
    expect(Object.keys(copy)).toEqual(Object.keys(original));
    for (const [entry, expected] of Object.entries(original)) expectSameEntry(copy[entry], expected, entry);
  }, 60_000);
});

describe('container.restart', () => {
  const name = `berth-test-restart-${suffix}`;
  const startedAt = async () => (await docker.getContainer(name).inspect()).State.StartedAt;

  it('restarts a running container it owns', async () => {
    expect(await run('container.ensure', { name, image })).toMatchObject({ created: true, running: true });
    const before = await startedAt();
    await new Promise((resolve) => setTimeout(resolve, 1100)); // StartedAt has a resolution the engine decides
    expect(await run('container.restart', { name, timeout_seconds: 1 })).toEqual({ restarted: true, running: true });
    const info = await docker.getContainer(name).inspect();
    expect(info.State.Running).toBe(true);
    expect(Date.parse(info.State.StartedAt)).toBeGreaterThan(Date.parse(before));
  });

  it('starts a stopped one', async () => {
    expect(await run('container.stop', { name, timeout_seconds: 1 })).toEqual({ stopped: true });
    expect((await docker.getContainer(name).inspect()).State.Running).toBe(false);
    expect(await run('container.restart', { name })).toEqual({ restarted: false, running: true });
    expect((await docker.getContainer(name).inspect()).State.Running).toBe(true);
  });

  it('fails for good on a missing container, and never touches one it did not create', async () => {
    const missing = await failure('container.restart', { name: `berth-test-missing-${suffix}` });
    expect(missing.permanent).toBe(true);
    expect(missing.message).toBe(`no container named berth-test-missing-${suffix}`);

    const stranger = `berth-test-stranger-${suffix}`;
    await docker.createContainer({ name: stranger, Image: image, Labels: { 'berth.test': suffix } });
    const refused = await failure('container.restart', { name: stranger });
    expect(refused.permanent).toBe(true);
    expect(refused.message).toMatch(/not created by this agent/);
    expect((await docker.getContainer(stranger).inspect()).State.Running).toBe(false);
    expect((await failure('container.restart', { name, timeout_seconds: 601 })).message).toMatch(/invalid container\.restart payload: timeout_seconds/);
  });
});
