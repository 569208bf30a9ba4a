import fs from 'node:fs';
import path from 'node:path';
import { KEYS_DIR } from '../identity.ts';
import { JOURNAL_DIR } from '../journal.ts';
import { CommandFailure } from '../commands/failure.ts';

/** The agent's own state inside the data directory: no command reads or writes it. */
const RESERVED = new Set([JOURNAL_DIR, KEYS_DIR]);

/**
 * Resolves a command's relative path inside the data directory, following symlinks that exist only
 * while they stay inside it: `..`, an absolute path, a symlink out of the directory, the directory
 * itself or the agent's own state fail the command (permanently). With `followLast: false` the last
 * component is not followed (removing or replacing a link acts on the link, not on where it points).
 * Parts that do not exist yet are returned as they are; creating them is the caller's, through
 * `ensureDirectoryInside`, which checks again afterwards.
 */
export async function resolveInside(dataDir: string, relative: string, options: { followLast?: boolean } = {}): Promise<string> {
  const normalized = path.posix.normalize(relative);
  const parts = normalized.split('/').filter((part) => part !== '' && part !== '.');
  if (path.posix.isAbsolute(relative) || relative.includes('\0') || parts.includes('..')) escape(relative, 'must be relative to the data directory, without ..');
  if (parts.length === 0) escape(relative, 'names the data directory itself');
  const root = await fs.promises.realpath(dataDir);
  let current = root;
  for (const [index, part] of parts.entries()) {
    const next = path.join(current, part);
    const last = index === parts.length - 1;
    let stat: fs.Stats;
    try {
      stat = await fs.promises.lstat(next);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      current = path.join(current, ...parts.slice(index));
      break;
    }
    if (stat.isSymbolicLink() && (!last || options.followLast !== false)) {
      let real: string;
      try {
        real = await fs.promises.realpath(next);
      } catch {
        escape(relative, 'goes through a dangling symlink');
      }
      current = real;
    } else {
      current = next;
    }
    checkContained(root, current, relative);
  }
  checkContained(root, current, relative);
  return current;
}

/** mkdir -p of a resolved path, then the check again: a symlink raced in along the way is caught. */
export async function ensureDirectoryInside(dataDir: string, resolved: string, mode: number): Promise<boolean> {
  const root = await fs.promises.realpath(dataDir);
  if (resolved === root) return false; // a file at the top of the data directory
  const existed = fs.existsSync(resolved);
  if (!existed) {
    await fs.promises.mkdir(resolved, { recursive: true, mode });
    await fs.promises.chmod(resolved, mode);
  }
  const real = await fs.promises.realpath(resolved);
  checkContained(root, real, path.relative(root, resolved));
  if (!(await fs.promises.stat(real)).isDirectory()) throw new CommandFailure(`${path.relative(root, resolved)} exists and is not a directory`, { permanent: true });
  return !existed;
}

function checkContained(root: string, candidate: string, relative: string): void {
  const inside = path.relative(root, candidate);
  if (inside === '') escape(relative, 'names the data directory itself');
  if (inside.startsWith('..') || path.isAbsolute(inside)) escape(relative, 'leads outside the data directory (through a symlink)');
  if (RESERVED.has(inside.split(path.sep)[0]!)) escape(relative, 'is the agent\'s own state');
}

function escape(relative: string, why: string): never {
  throw new CommandFailure(`path "${relative}" refused: it ${why}`, { permanent: true });
}
