import fs from 'node:fs';
import path from 'node:path';
import { CommandFailure } from './failure.ts';
import type { Handlers } from './types.ts';
import { ensureDirectoryInside, resolveInside } from '../runtime/data-dir.ts';
import { mirrorTree } from '../runtime/mirror-tree.ts';

/** One directory of the data directory mirrored into another (a site's files into a new environment). */
export const directorySyncCommands = {
  'directory.sync': async (payload, ctx) => {
    const source = await resolveInside(ctx.dataDir, payload.source);
    const target = await resolveInside(ctx.dataDir, payload.target);
    if (source === target) throw new CommandFailure(`directory.sync refused: ${payload.source} and ${payload.target} are the same directory`, { permanent: true });
    // One inside the other would copy the copy (or delete the source while mirroring it).
    if (contains(source, target) || contains(target, source)) {
      throw new CommandFailure(`directory.sync refused: ${payload.source} and ${payload.target} overlap (one is inside the other)`, { permanent: true });
    }
    let stat: fs.Stats;
    try {
      stat = await fs.promises.lstat(source);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new CommandFailure(`directory.sync: the source ${payload.source} does not exist`, { permanent: true });
      throw error;
    }
    if (!stat.isDirectory()) throw new CommandFailure(`directory.sync: the source ${payload.source} is not a directory`, { permanent: true });
    await ensureDirectoryInside(ctx.dataDir, target, stat.mode & 0o7777);
    const summary = await mirrorTree(source, await fs.promises.realpath(target), {
      exclude: payload.exclude,
      delete: payload.delete,
      signal: ctx.signal,
      onSpecial: (relative) => ctx.log('info', `skipped ${relative}: a special file (fifo, socket or device) is never copied`),
    });
    ctx.log('info', `synced ${payload.source} to ${payload.target}: ${summary.files} entries, ${summary.copied} copied (${summary.bytes_copied} bytes), ` +
      `${summary.skipped} unchanged, ${summary.deleted} deleted`);
    return summary;
  },
} satisfies Partial<Handlers>;

function contains(outer: string, inner: string): boolean {
  const relative = path.relative(outer, inner);
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}
