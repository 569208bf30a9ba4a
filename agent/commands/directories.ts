import fs from 'node:fs';
import { CommandFailure } from './failure.ts';
import type { Handlers } from './types.ts';
import { at, lstatAt, removeAt } from '../runtime/anchored.ts';
import { openInside, openParentInside } from '../runtime/data-dir.ts';

/** Host directories under the agent's data directory (site files, certificates, backups). */
export const directoryCommands = {
  'directory.ensure': async (payload, ctx) => {
    const { directory, created } = (await openInside(ctx.dataDir, payload.path, { create: payload.mode }))!;
    await directory.close();
    return { path: payload.path, created };
  },

  /** Removes the directory and what is in it, through descriptors; a symlink is removed itself, never followed. */
  'directory.remove': async (payload, ctx) => {
    const opened = await openParentInside(ctx.dataDir, payload.path);
    if (!opened) return { removed: false };
    try {
      return { removed: await removeAt(opened.parent, opened.name) };
    } finally {
      await opened.parent.close();
    }
  },

  /** Both parents opened through descriptors (never through a link); the parent of `to` is made if missing. */
  'directory.rename': async (payload, ctx) => {
    const from = await openParentInside(ctx.dataDir, payload.from);
    const to = await openParentInside(ctx.dataDir, payload.to, { create: 0o755 });
    try {
      const [source, target] = await Promise.all([from ? lstatAt(from.parent, from.name) : null, lstatAt(to!.parent, to!.name)]);
      if (!source && target) return { renamed: false };
      if (!source) throw new CommandFailure(`directory.rename: ${payload.from} does not exist`, { permanent: true });
      if (target) throw new CommandFailure(`directory.rename refused: ${payload.to} exists already`, { permanent: true });
      await fs.promises.rename(at(from!.parent, from!.name), at(to!.parent, to!.name));
      return { renamed: true };
    } finally {
      await Promise.all([from?.parent.close(), to?.parent.close()]);
    }
  },
} satisfies Partial<Handlers>;
