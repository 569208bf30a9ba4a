import fs from 'node:fs';
import { CommandFailure } from '../commands/failure.ts';

/**
 * File operations that no path can redirect. A tenant controls the files of its environment while
 * the agent (root) works on them, so a directory checked a moment ago may be a symlink to /etc now.
 * Here a directory is held open, and its entries are named `/proc/self/fd/<fd>/<name>`: Linux starts
 * that lookup from the directory the descriptor is (wherever it has been moved, whatever sits at its
 * old path now), so only the final name is looked up, and each call below acts on that name itself
 * (lstat, unlink, rmdir, rename, symlink, mkdir, lchown, and opens with O_NOFOLLOW). This is the
 * openat(2) discipline, which Node does not expose.
 *
 * A descriptor must stay open until every path made from it has been used: a closed fd number can
 * be given to another open, and its path would then lead there.
 */
export type Directory = fs.promises.FileHandle;

const PROC_FD = '/proc/self/fd';
/** A directory refilled (or swapped) this often while it is emptied is being fought over: give up. */
const REMOVE_ATTEMPTS = 5;
const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = fs.constants;

/** The path of `name` inside the open directory (one component: never `..`, never a slash). */
export function at(directory: Directory, name: string): string {
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0')) {
    throw new CommandFailure(`"${name}" is not a single file name`, { permanent: true });
  }
  return `${PROC_FD}/${directory.fd}/${name}`;
}

/** The open directory itself, as a path (for readdir). */
export function pathOf(directory: Directory): string {
  return `${PROC_FD}/${directory.fd}`;
}

/** Where the open directory really is now (for messages and the overlap check). */
export async function realPathOf(directory: Directory): Promise<string> {
  return fs.promises.readlink(pathOf(directory));
}

/** Without /proc this discipline has no way to work: refuse rather than fall back to plain paths. */
export function requireProcFd(): void {
  if (!fs.existsSync(PROC_FD)) throw new CommandFailure(`the agent needs Linux's ${PROC_FD} to work on site files safely`, { permanent: true });
}

export async function openDirectory(path: string): Promise<Directory> {
  return fs.promises.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
}

/**
 * Opens the directory `name` inside `directory`; null when there is no such entry. A symlink there
 * is refused (never followed), and so is a file; `shown` names the path in the message.
 */
export async function openDirectoryAt(directory: Directory, name: string, shown: string): Promise<Directory | null> {
  try {
    return await fs.promises.open(at(directory, name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ENOTDIR' || code === 'ELOOP') {
      const stat = await lstatAt(directory, name);
      if (stat?.isSymbolicLink()) throw symlinkRefused(shown);
      if (stat && !stat.isDirectory()) throw new CommandFailure(`${shown} exists and is not a directory`, { permanent: true });
      // a directory again: it was swapped and back between the open and the look
      throw new CommandFailure(`${shown} changed while it was being opened; running again completes the work`);
    }
    throw error;
  }
}

export function symlinkRefused(shown: string): CommandFailure {
  return new CommandFailure(`path "${shown}" refused: it is or goes through a symlink, and the agent never follows one`, { permanent: true });
}

export async function lstatAt(directory: Directory, name: string): Promise<fs.Stats | null> {
  try {
    return await fs.promises.lstat(at(directory, name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Removes `name` from `directory` and, if it is a directory, everything in it, depth first through
 * descriptors; a symlink is removed itself. Entries that change type while this runs (a directory
 * swapped for a link) are removed as what they are now. Returns false when there was nothing.
 */
export async function removeAt(directory: Directory, name: string): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    if (attempt > REMOVE_ATTEMPTS) throw new CommandFailure(`${name} kept changing while it was being removed (${REMOVE_ATTEMPTS} tries)`);
    try {
      await fs.promises.unlink(at(directory, name));
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return false;
      if (code !== 'EISDIR' && code !== 'EPERM') throw error;
    }
    let child: Directory;
    try {
      child = await fs.promises.open(at(directory, name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return false;
      if (code === 'ENOTDIR' || code === 'ELOOP') continue; // became a file or link since: unlink it
      throw error;
    }
    try {
      for (const entry of await fs.promises.readdir(pathOf(child))) await removeAt(child, entry);
    } finally {
      await child.close();
    }
    try {
      await fs.promises.rmdir(at(directory, name));
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return true;
      // refilled, or swapped for a link, while it was being emptied: go again
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOTDIR') throw error;
    }
  }
}
