import fs from 'node:fs';
import type { Handlers } from './types.ts';
import { ensureDirectoryInside, resolveInside } from '../runtime/data-dir.ts';

/** Host directories under the agent's data directory (site files, certificates, backups). */
export const directoryCommands = {
  'directory.ensure': async (payload, ctx) => {
    const resolved = await resolveInside(ctx.dataDir, payload.path);
    const created = await ensureDirectoryInside(ctx.dataDir, resolved, payload.mode);
    return { path: payload.path, created };
  },

  /** Removes the directory and what is in it; a symlink is removed itself, never followed. */
  'directory.remove': async (payload, ctx) => {
    const resolved = await resolveInside(ctx.dataDir, payload.path, { followLast: false });
    try {
      await fs.promises.lstat(resolved);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { removed: false };
      throw error;
    }
    await fs.promises.rm(resolved, { recursive: true, force: true });
    return { removed: true };
  },
} satisfies Partial<Handlers>;
