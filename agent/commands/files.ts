import fs from 'node:fs';
import path from 'node:path';
import { CommandFailure } from './failure.ts';
import type { Handlers } from './types.ts';
import { tempNameFor } from '../atomic-file.ts';
import { ensureDirectoryInside, resolveInside } from '../runtime/data-dir.ts';

/** Small files in and out of the data directory (configs, certificates, the PHP helper). */
export const fileCommands = {
  'files.put': async (payload, ctx) => {
    for (const file of payload.files) {
      if (ctx.signal.aborted) throw new CommandFailure('stopped before every file was written');
      // The last component is not followed: the rename below replaces a symlink, never writes through it.
      const target = await resolveInside(ctx.dataDir, file.path, { followLast: false });
      await ensureDirectoryInside(ctx.dataDir, path.dirname(target), 0o755);
      const temp = tempNameFor(target);
      const handle = await fs.promises.open(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, file.mode);
      try {
        await handle.writeFile(Buffer.from(file.content_base64, 'base64'));
        await handle.chmod(file.mode);
        await handle.sync();
      } finally {
        await handle.close();
      }
      try {
        await fs.promises.rename(temp, target);
      } catch (error) {
        await fs.promises.rm(temp, { force: true });
        if ((error as NodeJS.ErrnoException).code === 'EISDIR') throw new CommandFailure(`${file.path} is a directory`, { permanent: true });
        throw error;
      }
    }
    return { written: payload.files.length };
  },

  'files.get': async (payload, ctx) => {
    const source = await resolveInside(ctx.dataDir, payload.path);
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(source, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') throw new CommandFailure(`${payload.path} does not exist`, { permanent: true });
      if (code === 'ELOOP') throw new CommandFailure(`path "${payload.path}" refused: it changed into a symlink`, { permanent: true });
      throw error;
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
