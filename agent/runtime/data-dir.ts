import fs from 'node:fs';
import path from 'node:path';
import { KEYS_DIR } from '../identity.ts';
import { JOURNAL_DIR } from '../journal.ts';
import { CommandFailure } from '../commands/failure.ts';
import { SFTP_DIR } from '../sftp/user-store.ts';
import { at, openDirectory, openDirectoryAt, realPathOf, requireProcFd, symlinkRefused, type Directory } from './anchored.ts';

/** The agent's own state inside the data directory: no command reads or writes it. */
const RESERVED = new Set([JOURNAL_DIR, KEYS_DIR, SFTP_DIR]);

/**
 * A command's path inside the data directory, checked: relative, without `..`, not the data
 * directory itself, not the agent's own state. Commands never follow a symlink anywhere in it
 * (a tenant's tree may hold links to another environment's files or to the host's), so paths are
 * walked component by component through descriptors (./anchored.ts), never as strings.
 */
export function partsOf(relative: string): string[] {
  const parts = path.posix
    .normalize(relative)
    .split('/')
    .filter((part) => part !== '' && part !== '.');
  if (path.posix.isAbsolute(relative) || relative.includes('\0') || parts.includes('..'))
    refuse(relative, 'must be relative to the data directory, without ..');
  if (parts.length === 0) refuse(relative, 'names the data directory itself');
  if (RESERVED.has(parts[0]!)) refuse(relative, "is the agent's own state");
  return parts;
}

/**
 * Opens the directory at `relative`, each component opened from the one before with O_NOFOLLOW:
 * a symlink anywhere is refused. With `create`, missing components are made with that mode
 * (`created` says whether the last one was); without it a missing one is null.
 */
export async function openInside(
  dataDir: string,
  relative: string,
  options: { create?: number } = {},
): Promise<{ directory: Directory; created: boolean } | null> {
  return walk(dataDir, relative, partsOf(relative), options.create);
}

/** The open parent directory of `relative` and the last name (the caller acts on it through `at`). */
export async function openParentInside(
  dataDir: string,
  relative: string,
  options: { create?: number } = {},
): Promise<{ parent: Directory; name: string } | null> {
  const parts = partsOf(relative);
  const opened = await walk(dataDir, relative, parts.slice(0, -1), options.create);
  return opened && { parent: opened.directory, name: parts.at(-1)! };
}

/**
 * For a host path handed to the Docker engine (a bind mount's source): the directory is made (or
 * found) through descriptors, and its real path must be the plain join of its parts, so no
 * component is a link. The engine then resolves the path itself; these are the agent's own
 * directories (sites/env-…/files is the container's mount point), which a tenant cannot rename.
 */
export async function ensureDirectoryPath(dataDir: string, relative: string, mode: number): Promise<string> {
  const opened = (await openInside(dataDir, relative, { create: mode }))!;
  try {
    const expected = path.join(await fs.promises.realpath(dataDir), ...partsOf(relative));
    if ((await realPathOf(opened.directory)) !== expected) throw symlinkRefused(relative);
    return expected;
  } finally {
    await opened.directory.close();
  }
}

async function walk(
  dataDir: string,
  relative: string,
  parts: readonly string[],
  create: number | undefined,
): Promise<{ directory: Directory; created: boolean } | null> {
  requireProcFd();
  let current = await openDirectory(await fs.promises.realpath(dataDir));
  let created = false;
  try {
    for (const [index, part] of parts.entries()) {
      const shown = parts.slice(0, index + 1).join('/');
      let next = await openDirectoryAt(current, part, shown);
      created = false;
      if (!next) {
        if (create === undefined) {
          await current.close();
          return null;
        }
        next = await makeDirectoryAt(current, part, shown, create);
        created = true;
      }
      await current.close();
      current = next;
    }
    return { directory: current, created };
  } catch (error) {
    await current.close();
    throw error;
  }
}

/** mkdir through the parent's descriptor, then the mode set on the new directory (mkdir's is masked). */
async function makeDirectoryAt(parent: Directory, name: string, shown: string, mode: number): Promise<Directory> {
  try {
    await fs.promises.mkdir(at(parent, name), { mode });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const made = await openDirectoryAt(parent, name, shown);
  if (!made) throw new CommandFailure(`${shown} disappeared while it was being made`);
  await made.chmod(mode);
  return made;
}

function refuse(relative: string, why: string): never {
  throw new CommandFailure(`path "${relative}" refused: it ${why}`, { permanent: true });
}
