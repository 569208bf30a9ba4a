import path from 'node:path';
import { CommandFailure } from './failure.ts';
import type { Handlers } from './types.ts';
import { realPathOf, type Directory } from '../runtime/anchored.ts';
import { openInside, partsOf } from '../runtime/data-dir.ts';
import { mirrorTree } from '../runtime/mirror-tree.ts';

/** One directory of the data directory mirrored into another (a site's files into a new environment). */
export const directorySyncCommands = {
  'directory.sync': async (payload, ctx) => {
    partsOf(payload.target); // refused before the source is opened
    const source = await openInside(ctx.dataDir, payload.source);
    if (!source) throw new CommandFailure(`directory.sync: the source ${payload.source} does not exist`, { permanent: true });
    let target: Directory | undefined;
    try {
      const [sourceReal, sourceStat] = await Promise.all([realPathOf(source.directory), source.directory.stat()]);
      // Compared as written first, so nothing is made for a target inside the source.
      const sourceParts = partsOf(payload.source).join('/');
      const targetParts = partsOf(payload.target).join('/');
      if (sourceParts === targetParts)
        throw new CommandFailure(`directory.sync refused: ${payload.source} and ${payload.target} are the same directory`, { permanent: true });
      if (contains(sourceParts, targetParts) || contains(targetParts, sourceParts)) throw overlap(payload.source, payload.target);
      target = (await openInside(ctx.dataDir, payload.target, { create: sourceStat.mode & 0o7777 }))!.directory;
      // One inside the other would copy the copy (or delete the source while mirroring it).
      const targetReal = await realPathOf(target);
      if (sourceReal === targetReal || contains(sourceReal, targetReal) || contains(targetReal, sourceReal)) throw overlap(payload.source, payload.target);
      const summary = await mirrorTree(source.directory, target, {
        exclude: payload.exclude,
        delete: payload.delete,
        signal: ctx.signal,
        onSpecial: (relative) => ctx.log('info', `skipped ${relative}: a special file (fifo, socket or device) is never copied`),
      });
      ctx.log(
        'info',
        `synced ${payload.source} to ${payload.target}: ${summary.files} entries, ${summary.copied} copied (${summary.bytes_copied} bytes), ` +
          `${summary.skipped} unchanged, ${summary.deleted} deleted`,
      );
      return summary;
    } finally {
      await target?.close();
      await source.directory.close();
    }
  },
} satisfies Partial<Handlers>;

function overlap(source: string, target: string): CommandFailure {
  return new CommandFailure(`directory.sync refused: ${source} and ${target} overlap (one is inside the other)`, { permanent: true });
}

function contains(outer: string, inner: string): boolean {
  const relative = path.posix.relative(outer, inner);
  return relative !== '' && relative !== '..' && !relative.startsWith('../') && !path.posix.isAbsolute(relative);
}
