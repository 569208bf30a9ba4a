import fs from 'node:fs';
import ssh2 from 'ssh2';
import { CommandFailure } from '../commands/failure.ts';
import { at, openDirectoryAt, type Directory } from '../runtime/anchored.ts';
import { openInside } from '../runtime/data-dir.ts';

const { STATUS_CODE } = ssh2.utils.sftp;

/** A refusal the SFTP client sees as a status (`code` from SFTP's STATUS_CODE). */
export class SftpRefusal extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

export const noSuchFile = (shown: string) => new SftpRefusal(STATUS_CODE.NO_SUCH_FILE, `${shown}: no such file or directory`);
export const denied = (shown: string, why = 'permission denied') => new SftpRefusal(STATUS_CODE.PERMISSION_DENIED, `${shown}: ${why}`);
export const failure = (shown: string, why: string) => new SftpRefusal(STATUS_CODE.FAILURE, `${shown}: ${why}`);

/**
 * A client's path as components inside the jail: the jail's top is `/`, a relative path starts
 * there too (the user's home), and `..` above the top stays at the top (as in a chroot).
 */
export function jailParts(requested: string): string[] {
  if (requested.includes('\0')) throw denied('path', 'contains NUL');
  const parts: string[] = [];
  for (const part of requested.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return parts;
}

export const shownPath = (parts: readonly string[]) => `/${parts.join('/')}`;

/**
 * Refuses a symlink target that could lead out of the jail. Relative only (an absolute target means
 * one thing here and another in the site's container), and with no `..` at all: checked as text a
 * `..` looks harmless, but the links it passes through may be other relative links, and a chain of
 * them resolves above the top.
 */
export function assertSymlinkTarget(target: string, shown: string): void {
  if (target === '' || target.startsWith('/') || target.includes('\0')) throw denied(shown, 'a symlink target must be a relative path inside your files');
  if (target.split('/').includes('..')) throw denied(shown, `the target ${target} contains .. (a symlink may only point down from its directory)`);
}

/** The error of a file system call as the client should see it. */
export function refusalOf(error: unknown, shown: string): SftpRefusal {
  if (error instanceof SftpRefusal) return error;
  if (error instanceof CommandFailure) return denied(shown, 'refused: a symlink on the way (never followed), or not a directory');
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return noSuchFile(shown);
  if (code === 'ELOOP') return denied(shown, 'is a symlink (never followed)');
  if (code === 'EACCES' || code === 'EPERM') return denied(shown);
  if (code === 'EEXIST') return failure(shown, 'exists already');
  if (code === 'ENOTEMPTY') return failure(shown, 'directory not empty');
  if (code === 'ENOTDIR') return failure(shown, 'not a directory');
  if (code === 'EISDIR') return failure(shown, 'is a directory');
  if (code === 'ENOSPC' || code === 'EDQUOT') return failure(shown, 'no space left');
  return failure(shown, 'failed');
}

/**
 * One user's view of the node's disk: the environment's files directory (`root`, relative to the
 * agent's data directory). Every request opens the root afresh and walks down component by
 * component through descriptors with O_NOFOLLOW (../runtime/anchored.ts): a symlink on the way is
 * refused, never followed, whatever it points at, so nothing outside the root is ever reached. The
 * last component is acted on through its parent's descriptor (`at`), by calls that do not follow it.
 */
export class Jail {
  private readonly dataDir: string;
  private readonly root: string;
  constructor(dataDir: string, root: string) {
    this.dataDir = dataDir;
    this.root = root;
  }

  /** The open directory at `parts` (the root for none); the caller closes it. */
  async openDirectory(parts: readonly string[]): Promise<Directory> {
    const top = await openInside(this.dataDir, this.root);
    if (!top) throw noSuchFile('/');
    let current = top.directory;
    try {
      for (const [index, part] of parts.entries()) {
        const shown = shownPath(parts.slice(0, index + 1));
        const next = await openDirectoryAt(current, part, shown).catch((error: unknown) => {
          throw refusalOf(error, shown);
        });
        if (!next) throw noSuchFile(shown);
        await current.close();
        current = next;
      }
      return current;
    } catch (error) {
      await current.close();
      throw error;
    }
  }

  /** Runs `use` with the open parent of `parts` and the last name; `/` itself has no parent and is refused. */
  async withParent<T>(parts: readonly string[], use: (parent: Directory, name: string, path: string) => Promise<T>): Promise<T> {
    const shown = shownPath(parts);
    if (parts.length === 0) throw denied('/', 'is the top of your files');
    const parent = await this.openDirectory(parts.slice(0, -1));
    try {
      return await use(parent, parts.at(-1)!, at(parent, parts.at(-1)!));
    } catch (error) {
      throw refusalOf(error, shown);
    } finally {
      await parent.close();
    }
  }

  /** lstat of `parts` (the root's own for none): a symlink is described, never followed. */
  async lstat(parts: readonly string[]): Promise<fs.Stats> {
    if (parts.length === 0) {
      const root = await this.openDirectory([]);
      try {
        return await root.stat();
      } finally {
        await root.close();
      }
    }
    return this.withParent(parts, (_parent, _name, path) => fs.promises.lstat(path));
  }
}
