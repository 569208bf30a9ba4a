import fs from 'node:fs';
import path from 'node:path';
import { tempNameFor } from '../atomic-file.ts';
import { CommandFailure } from '../commands/failure.ts';

export type MirrorOptions = {
  /** Paths relative to the roots (normalized, no `..`): neither copied nor deleted. */
  exclude: readonly string[];
  /** Remove what the target has and the source lacks. */
  delete: boolean;
  signal: AbortSignal;
  /** File operations in flight at once. */
  concurrency?: number;
  /** Called for each special file (fifo, socket, device) of the source, which is never copied. */
  onSpecial?(relative: string): void;
};

export type MirrorSummary = { files: number; copied: number; skipped: number; deleted: number; bytes_copied: number };

const DEFAULT_CONCURRENCY = 16;
const COPY_BUFFER_BYTES = 128 * 1024;
/**
 * Two mtimes this close are the same: utimes() keeps microseconds (libuv truncates) and a double of
 * seconds loses a little more, so an exact comparison would copy every file again on every run.
 */
const MTIME_WINDOW_MS = 1;
/** Where Linux shows what an open descriptor really is, after every symlink and rename. */
const PROC_FD = '/proc/self/fd';
const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = fs.constants;

type Mirror = {
  sourceRoot: string;
  targetRoot: string;
  excluded: ReadonlySet<string>;
  options: MirrorOptions;
  /** Only root may give files away; anyone else keeps their own uid/gid on what they write. */
  chown: boolean;
  run: <T>(task: () => Promise<T>) => Promise<T>;
  summary: MirrorSummary;
};

/**
 * Mirrors the directory `sourceRoot` into `targetRoot` (both real paths, neither inside the other)
 * in place: the target directory itself is kept (a container may bind-mount it), its contents are
 * made equal to the source's. rsync -a semantics with --delete: the quick check (size and mtime)
 * decides what is copied; symlinks are copied as links and never followed; mode, owner and times
 * are kept on files, directories and links; special files are skipped.
 *
 * Containers may change either tree while it runs, so nothing is trusted between a look and a use:
 * files are opened with O_NOFOLLOW and what the descriptor really is (/proc/self/fd) must lie inside
 * its root; metadata is set through descriptors (chmod through a path would follow a link planted
 * there); new content goes to a temporary file beside its target, renamed over it.
 */
export async function mirrorTree(sourceRoot: string, targetRoot: string, options: MirrorOptions): Promise<MirrorSummary> {
  const mirror: Mirror = {
    sourceRoot,
    targetRoot,
    excluded: new Set(options.exclude),
    options,
    chown: process.getuid?.() === 0,
    run: limiter(options.concurrency ?? DEFAULT_CONCURRENCY),
    summary: { files: 0, copied: 0, skipped: 0, deleted: 0, bytes_copied: 0 },
  };
  await syncDirectory(mirror, '', await fs.promises.lstat(sourceRoot));
  return mirror.summary;
}

async function syncDirectory(mirror: Mirror, relative: string, sourceStat: fs.Stats): Promise<void> {
  checkAborted(mirror);
  const sourceDir = path.join(mirror.sourceRoot, relative);
  const targetDir = path.join(mirror.targetRoot, relative);
  // Read by path, so both must still be what the walk saw: a directory swapped for a link is refused.
  await Promise.all([assertReal(sourceDir, relative), assertReal(targetDir, relative)]);
  const [names, present] = await Promise.all([
    mirror.run(() => fs.promises.readdir(sourceDir)),
    mirror.run(() => fs.promises.readdir(targetDir)),
  ]);
  const inSource = new Set(names);
  const childOf = (name: string) => (relative === '' ? name : `${relative}/${name}`);
  await settleAll(names.filter((name) => !mirror.excluded.has(childOf(name))).map((name) => syncEntry(mirror, childOf(name))));
  if (mirror.options.delete) {
    const extras = present.filter((name) => !inSource.has(name) && !mirror.excluded.has(childOf(name)));
    await settleAll(extras.map((name) => mirror.run(async () => {
      checkAborted(mirror);
      await fs.promises.rm(path.join(targetDir, name), { recursive: true, force: true });
      mirror.summary.deleted += 1;
    })));
  }
  // Last: writing the children moved the directory's mtime.
  await mirror.run(() => applyDirectoryMetadata(mirror, targetDir, sourceStat));
}

async function syncEntry(mirror: Mirror, relative: string): Promise<void> {
  checkAborted(mirror);
  const stat = await mirror.run(() => lstatOrNull(path.join(mirror.sourceRoot, relative)));
  if (!stat) return; // gone since the directory was read
  mirror.summary.files += 1;
  const target = path.join(mirror.targetRoot, relative);
  if (stat.isDirectory()) {
    const current = await mirror.run(() => lstatOrNull(target));
    if (current?.isDirectory()) {
      mirror.summary.skipped += 1;
    } else {
      await mirror.run(async () => {
        if (current) await fs.promises.rm(target, { recursive: true, force: true });
        await fs.promises.mkdir(target, { mode: stat.mode & 0o7777 });
      });
      mirror.summary.copied += 1;
    }
    await syncDirectory(mirror, relative, stat);
  } else if (stat.isSymbolicLink()) {
    await mirror.run(() => syncLink(mirror, relative, stat));
  } else if (stat.isFile()) {
    await mirror.run(() => syncFile(mirror, relative, stat));
  } else {
    mirror.summary.skipped += 1;
    mirror.options.onSpecial?.(relative);
  }
}

async function syncFile(mirror: Mirror, relative: string, stat: fs.Stats): Promise<void> {
  checkAborted(mirror);
  const target = path.join(mirror.targetRoot, relative);
  const current = await lstatOrNull(target);
  // The quick check; a changed mode or owner is copied again too, so both are set through a descriptor.
  if (current?.isFile() && current.size === stat.size && sameTime(current, stat) && sameAccess(mirror, current, stat)) {
    mirror.summary.skipped += 1;
    return;
  }
  const source = await openOrNull(path.join(mirror.sourceRoot, relative), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  if (!source) return; // gone, or swapped for a link, since it was listed: nothing to copy
  try {
    const opened = await source.stat();
    if (!opened.isFile()) {
      mirror.summary.skipped += 1;
      return;
    }
    await assertInside(source, mirror.sourceRoot, relative);
    if (current?.isDirectory()) await fs.promises.rm(target, { recursive: true, force: true });
    const temp = tempNameFor(target);
    const output = await fs.promises.open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
    let bytes: number;
    try {
      await assertInside(output, mirror.targetRoot, relative);
      bytes = await copyContent(mirror, source, output);
      await applyMetadata(mirror, output, opened);
    } catch (error) {
      await output.close();
      await fs.promises.rm(temp, { force: true });
      throw error;
    }
    await output.close();
    await renameOrDiscard(temp, target);
    mirror.summary.copied += 1;
    mirror.summary.bytes_copied += bytes;
  } finally {
    await source.close();
  }
}

async function syncLink(mirror: Mirror, relative: string, stat: fs.Stats): Promise<void> {
  checkAborted(mirror);
  const target = path.join(mirror.targetRoot, relative);
  const text = await fs.promises.readlink(path.join(mirror.sourceRoot, relative));
  const current = await lstatOrNull(target);
  if (current?.isSymbolicLink() && (await fs.promises.readlink(target)) === text) {
    // lchown and lutimes act on the link itself, never on what it points to
    if (mirror.chown && (current.uid !== stat.uid || current.gid !== stat.gid)) await fs.promises.lchown(target, stat.uid, stat.gid);
    if (!sameTime(current, stat)) await fs.promises.lutimes(target, stat.atimeMs / 1000, stat.mtimeMs / 1000);
    mirror.summary.skipped += 1;
    return;
  }
  if (current?.isDirectory()) await fs.promises.rm(target, { recursive: true, force: true });
  const temp = tempNameFor(target);
  await fs.promises.symlink(text, temp);
  try {
    if (mirror.chown) await fs.promises.lchown(temp, stat.uid, stat.gid);
    await fs.promises.lutimes(temp, stat.atimeMs / 1000, stat.mtimeMs / 1000);
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
  await renameOrDiscard(temp, target);
  mirror.summary.copied += 1;
}

async function applyDirectoryMetadata(mirror: Mirror, directory: string, stat: fs.Stats): Promise<void> {
  const handle = await fs.promises.open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  try {
    await assertInside(handle, mirror.targetRoot, path.relative(mirror.targetRoot, directory) || '.');
    await applyMetadata(mirror, handle, stat);
  } finally {
    await handle.close();
  }
}

/** Owner first: chown clears the setuid and setgid bits that chmod then sets. */
async function applyMetadata(mirror: Mirror, handle: fs.promises.FileHandle, stat: fs.Stats): Promise<void> {
  if (mirror.chown) await handle.chown(stat.uid, stat.gid);
  await handle.chmod(stat.mode & 0o7777);
  await handle.utimes(stat.atimeMs / 1000, stat.mtimeMs / 1000);
}

async function copyContent(mirror: Mirror, from: fs.promises.FileHandle, to: fs.promises.FileHandle): Promise<number> {
  const buffer = Buffer.allocUnsafe(COPY_BUFFER_BYTES);
  let total = 0;
  for (;;) {
    checkAborted(mirror);
    const { bytesRead } = await from.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) return total;
    for (let offset = 0; offset < bytesRead;) offset += (await to.write(buffer, offset, bytesRead - offset)).bytesWritten;
    total += bytesRead;
  }
}

function sameTime(a: fs.Stats, b: fs.Stats): boolean {
  return Math.abs(a.mtimeMs - b.mtimeMs) < MTIME_WINDOW_MS;
}

function sameAccess(mirror: Mirror, a: fs.Stats, b: fs.Stats): boolean {
  return (a.mode & 0o7777) === (b.mode & 0o7777) && (!mirror.chown || (a.uid === b.uid && a.gid === b.gid));
}

/** The descriptor's real path must lie inside `root`: a directory on its way swapped for a link is caught. */
async function assertInside(handle: fs.promises.FileHandle, root: string, relative: string): Promise<void> {
  let real: string;
  try {
    real = await fs.promises.readlink(`${PROC_FD}/${handle.fd}`);
  } catch {
    return; // no /proc (not Linux): the O_NOFOLLOW opens and assertReal are the guard
  }
  if (real !== root && !real.startsWith(`${root}${path.sep}`)) throw escaped(relative);
}

async function assertReal(directory: string, relative: string): Promise<void> {
  if ((await fs.promises.realpath(directory)) !== directory) throw escaped(relative || '.');
}

function escaped(relative: string): CommandFailure {
  return new CommandFailure(`${relative} was replaced by a symlink while it was being synced; nothing was written through it`, { permanent: true });
}

function checkAborted(mirror: Mirror): void {
  const { signal } = mirror.options;
  if (signal.aborted) {
    const reason = signal.reason instanceof Error ? signal.reason.message : 'aborted';
    throw new CommandFailure(`the sync stopped before it finished (${reason}); running it again completes it`);
  }
}

async function renameOrDiscard(temp: string, target: string): Promise<void> {
  try {
    await fs.promises.rename(temp, target);
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
}

async function lstatOrNull(file: string): Promise<fs.Stats | null> {
  try {
    return await fs.promises.lstat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function openOrNull(file: string, flags: number): Promise<fs.promises.FileHandle | null> {
  try {
    return await fs.promises.open(file, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP') return null;
    throw error;
  }
}

/** Waits for every task, so nothing is still writing when the sync reports; then the first failure. */
async function settleAll(tasks: Array<Promise<unknown>>): Promise<void> {
  const outcomes = await Promise.allSettled(tasks);
  const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) throw failed.reason;
}

/** At most `max` tasks at once; a finishing task hands its slot straight to the next in line. */
function limiter(max: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (active < max) active += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}
