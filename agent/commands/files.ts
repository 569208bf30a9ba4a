import fs from 'node:fs';
import { CommandFailure } from './failure.ts';
import type { Handlers } from './types.ts';
import { tempNameFor } from '../atomic-file.ts';
import { at, symlinkRefused } from '../runtime/anchored.ts';
import { openParentInside } from '../runtime/data-dir.ts';

/** Small files in and out of the data directory (configs, certificates, the PHP helper). */
export const fileCommands = {
  'files.put': async (payload, ctx) => {
    for (const file of payload.files) {
      if (ctx.signal.aborted) throw new CommandFailure('stopped before every file was written');
      // Written beside its target through the parent's descriptor, then renamed over it: a symlink
      // at the target is replaced, never written through, and no directory on the way is followed.
      const { parent, name } = (await openParentInside(ctx.dataDir, file.path, { create: 0o755 }))!;
      try {
        const temp = tempNameFor(name);
        const handle = await fs.promises.open(
          at(parent, temp),
          fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW,
          file.mode,
        );
        try {
          await handle.writeFile(Buffer.from(file.content_base64, 'base64'));
          await handle.chmod(file.mode);
          await handle.sync();
        } finally {
          await handle.close();
        }
        try {
          await fs.promises.rename(at(parent, temp), at(parent, name));
        } catch (error) {
          await fs.promises.rm(at(parent, temp), { force: true });
          if ((error as NodeJS.ErrnoException).code === 'EISDIR') throw new CommandFailure(`${file.path} is a directory`, { permanent: true });
          throw error;
        }
      } finally {
        await parent.close();
      }
    }
    return { written: payload.files.length };
  },

  'files.get': async (payload, ctx) => {
    const opened = await openParentInside(ctx.dataDir, payload.path);
    if (!opened) throw new CommandFailure(`${payload.path} does not exist`, { permanent: true });
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(at(opened.parent, opened.name), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') throw new CommandFailure(`${payload.path} does not exist`, { permanent: true });
      if (code === 'ELOOP') throw symlinkRefused(payload.path);
      throw error;
    } finally {
      await opened.parent.close();
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw new CommandFailure(`${payload.path} is not a regular file`, { permanent: true });
      const buffer = Buffer.alloc(Math.min(stat.size, payload.max_bytes));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      return { content_base64: buffer.subarray(0, bytesRead).toString('base64'), truncated: stat.size > payload.max_bytes };
    } finally {
      await handle.close();
    }
  },
} satisfies Partial<Handlers>;
