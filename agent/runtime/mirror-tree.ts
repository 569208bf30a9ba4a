import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { CommandFailure } from '../commands/failure.ts';
import { at, lstatAt, openDirectoryAt, pathOf, removeAt, requireProcFd, type Directory } from './anchored.ts';

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
/**
 * Directories walked at once beside the main walk; past this a subdirectory is walked in its
 * parent's turn. Each walk in progress holds two descriptors per level, so this bounds them.
 */
const DIRECTORY_WALKS = 32;
const COPY_BUFFER_BYTES = 128 * 1024;
/**
 * Two mtimes this close are the same: utimes() keeps microseconds (libuv truncates) and a double of
 * seconds loses a little more, so an exact comparison would copy every file again on every run.
 */
const MTIME_WINDOW_MS = 1;
const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = fs.constants;

type Mirror = {
  excluded: ReadonlySet<string>;
  options: MirrorOptions;
  /** Only root may give files away; anyone else keeps their own uid/gid on what they write. */
  chown: boolean;
  run: <T>(task: () => Promise<T>) => Promise<T>;
  /** Directory walks that may still start beside the others (DIRECTORY_WALKS). */
  freeWalks: number;
  summary: MirrorSummary;
};

/**
 * Mirrors the open directory `source` into the open directory `target` (neither inside the other)
 * in place: the target directory itself is kept (a container may bind-mount it), its contents are
 * made equal to the source's. rsync -a semantics with --delete: the quick check (size and mtime)
 * decides what is copied; symlinks are copied as links and never followed; mode, owner and times
 * are kept on files, directories and links; special files are skipped.
 *
 * Both trees belong to running containers whose tenants may swap any directory for a symlink while
 * this runs, so no path is ever looked up twice: every directory is held open and its entries are
 * reached through its descriptor (./anchored.ts), files are opened with O_NOFOLLOW, metadata is set
 * through descriptors, and new content goes to a temporary file beside its target, renamed over it.
 * A swap can make the sync fail; it can never make it read or write outside the two trees.
 */
export async function mirrorTree(source: Directory, target: Directory, options: MirrorOptions): Promise<MirrorSummary> {
  requireProcFd();
  const mirror: Mirror = {
    excluded: new Set(options.exclude),
    options,
    chown: process.getuid?.() === 0,
    run: limiter(options.concurrency ?? DEFAULT_CONCURRENCY),
    freeWalks: DIRECTORY_WALKS,
    summary: { files: 0, copied: 0, skipped: 0, deleted: 0, bytes_copied: 0 },
  };
  await syncDirectory(mirror, '', source, target, await source.stat());
  return mirror.summary;
}

async function syncDirectory(mirror: Mirror, relative: string, source: Directory, target: Directory, sourceStat: fs.Stats): Promise<void> {
  checkAborted(mirror);
  const [names, present] = await Promise.all([mirror.run(() => fs.promises.readdir(pathOf(source))), mirror.run(() => fs.promises.readdir(pathOf(target)))]);
  const childOf = (name: string) => (relative === '' ? name : `${relative}/${name}`);
  const included = names.filter((name) => !mirror.excluded.has(childOf(name)));
  const stats = await Promise.all(included.map((name) => mirror.run(() => lstatAt(source, name))));
  const tasks: Array<Promise<void>> = [];
  const directories: Array<[string, fs.Stats]> = [];
  for (const [index, name] of included.entries()) {
    const stat = stats[index];
    if (!stat) continue; // gone since the directory was read
    mirror.summary.files += 1;
    if (stat.isDirectory()) directories.push([name, stat]);
    else tasks.push(observed(syncEntry(mirror, source, target, name, childOf(name), stat)));
  }
  for (const [name, stat] of directories) {
    // A free walk runs beside this one; otherwise the subdirectory is walked now, in this walk's turn.
    const walk = observed(syncSubdirectory(mirror, source, target, name, childOf(name), stat));
    if (mirror.freeWalks > 0) {
      mirror.freeWalks -= 1;
      tasks.push(
        observed(
          walk.finally(() => {
            mirror.freeWalks += 1;
          }),
        ),
      );
    } else {
      tasks.push(walk);
      await walk.catch(() => undefined); // settleAll reports it
    }
  }
  await settleAll(tasks);
  if (mirror.options.delete) {
    const inSource = new Set(names);
    const extras = present.filter((name) => !inSource.has(name) && !mirror.excluded.has(childOf(name)));
    await settleAll(
      extras.map((name) =>
        mirror.run(async () => {
          checkAborted(mirror);
          if (await removeAt(target, name)) mirror.summary.deleted += 1;
        }),
      ),
    );
  }
  // Last: writing the children moved the directory's mtime.
  await mirror.run(() => applyMetadata(mirror, target, sourceStat));
}

async function syncEntry(mirror: Mirror, source: Directory, target: Directory, name: string, relative: string, stat: fs.Stats): Promise<void> {
  if (stat.isSymbolicLink()) {
    await mirror.run(() => syncLink(mirror, source, target, name, stat));
  } else if (stat.isFile()) {
    await mirror.run(() => syncFile(mirror, source, target, name, stat));
  } else {
    mirror.summary.skipped += 1;
    mirror.options.onSpecial?.(relative);
  }
}

/** The source's subdirectory and the target's, made (or replaced) to match, each held open while mirrored. */
async function syncSubdirectory(mirror: Mirror, source: Directory, target: Directory, name: string, relative: string, stat: fs.Stats): Promise<void> {
  checkAborted(mirror);
  const sourceChild = await mirror.run(() => openDirectoryAt(source, name, relative));
  if (!sourceChild) return; // gone since it was listed
  try {
    const targetChild = await mirror.run(() => targetDirectory(mirror, target, name, relative, stat));
    try {
      await syncDirectory(mirror, relative, sourceChild, targetChild, await sourceChild.stat());
    } finally {
      await targetChild.close();
    }
  } finally {
    await sourceChild.close();
  }
}

async function targetDirectory(mirror: Mirror, target: Directory, name: string, relative: string, stat: fs.Stats): Promise<Directory> {
  const current = await lstatAt(target, name);
  if (current?.isDirectory()) {
    const opened = await openDirectoryAt(target, name, relative);
    if (opened) {
      mirror.summary.skipped += 1;
      return opened;
    }
  } else if (current) {
    await removeAt(target, name);
  }
  try {
    await fs.promises.mkdir(at(target, name), { mode: stat.mode & 0o7777 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const made = await openDirectoryAt(target, name, relative);
  if (!made) throw new CommandFailure(`${relative} disappeared while it was being made; running the sync again completes it`);
  mirror.summary.copied += 1;
  return made;
}

async function syncFile(mirror: Mirror, source: Directory, target: Directory, name: string, stat: fs.Stats): Promise<void> {
  checkAborted(mirror);
  const current = await lstatAt(target, name);
  // The quick check; a changed mode or owner is copied again too, so both are set through a descriptor.
  if (current?.isFile() && current.size === stat.size && sameTime(current, stat) && sameAccess(mirror, current, stat)) {
    mirror.summary.skipped += 1;
    return;
  }
  const input = await openOrNull(at(source, name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  if (!input) return; // gone, or swapped for a link, since it was listed: nothing to copy
  try {
    const opened = await input.stat();
    if (!opened.isFile()) {
      mirror.summary.skipped += 1;
      return;
    }
    if (current?.isDirectory()) await removeAt(target, name);
    const temp = tempName(name);
    const output = await fs.promises.open(at(target, temp), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
    let bytes: number;
    try {
      bytes = await copyContent(mirror, input, output);
      await applyMetadata(mirror, output, opened);
    } catch (error) {
      await output.close();
      await fs.promises.rm(at(target, temp), { force: true });
      throw error;
    }
    await output.close();
    await renameOrDiscard(target, temp, name);
    mirror.summary.copied += 1;
    mirror.summary.bytes_copied += bytes;
  } finally {
    await input.close();
  }
}

async function syncLink(mirror: Mirror, source: Directory, target: Directory, name: string, stat: fs.Stats): Promise<void> {
  checkAborted(mirror);
  let text: string;
  try {
    text = await fs.promises.readlink(at(source, name));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EINVAL') return; // gone, or no longer a link, since it was listed
    throw error;
  }
  const current = await lstatAt(target, name);
  if (current?.isSymbolicLink() && (await fs.promises.readlink(at(target, name))) === text) {
    // lchown and lutimes act on the link itself, never on what it points to
    if (mirror.chown && (current.uid !== stat.uid || current.gid !== stat.gid)) await fs.promises.lchown(at(target, name), stat.uid, stat.gid);
    if (!sameTime(current, stat)) await fs.promises.lutimes(at(target, name), stat.atimeMs / 1000, stat.mtimeMs / 1000);
    mirror.summary.skipped += 1;
    return;
  }
  if (current?.isDirectory()) await removeAt(target, name);
  const temp = tempName(name);
  await fs.promises.symlink(text, at(target, temp));
  try {
    if (mirror.chown) await fs.promises.lchown(at(target, temp), stat.uid, stat.gid);
    await fs.promises.lutimes(at(target, temp), stat.atimeMs / 1000, stat.mtimeMs / 1000);
  } catch (error) {
    await fs.promises.rm(at(target, temp), { force: true });
    throw error;
  }
  await renameOrDiscard(target, temp, name);
  mirror.summary.copied += 1;
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

function checkAborted(mirror: Mirror): void {
  const { signal } = mirror.options;
  if (signal.aborted) {
    const reason = signal.reason instanceof Error ? signal.reason.message : 'aborted';
    throw new CommandFailure(`the sync stopped before it finished (${reason}); running it again completes it`);
  }
}

/** A hidden temporary name beside `name` (bounded, so a long name cannot make it too long). */
function tempName(name: string): string {
  return `.${name.slice(0, 200)}.${randomBytes(6).toString('hex')}.tmp`;
}

async function renameOrDiscard(directory: Directory, temp: string, name: string): Promise<void> {
  try {
    await fs.promises.rename(at(directory, temp), at(directory, name));
  } catch (error) {
    await fs.promises.rm(at(directory, temp), { force: true });
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

/**
 * The task, marked as looked after: its failure is reported by settleAll, which may only get to it
 * after a long inline walk; until then Node would call it an unhandled rejection.
 */
function observed<T>(task: Promise<T>): Promise<T> {
  task.catch(() => undefined);
  return task;
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
