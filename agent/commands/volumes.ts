import type { Handlers } from './types.ts';
import { isNotFound, isOwned, notOwned, ownedLabels } from '../runtime/docker.ts';

export const volumeCommands = {
  'volume.ensure': async (payload, ctx) => {
    try {
      const existing = await ctx.docker.getVolume(payload.name).inspect();
      if (!isOwned(existing.Labels, ctx.nodeId)) throw notOwned('volume', payload.name);
      return { name: existing.Name, created: false };
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    // Creating a volume that exists answers it as it is (no conflict): ownership is checked again.
    await ctx.docker.createVolume({ Name: payload.name, Labels: ownedLabels(ctx.nodeId, payload.labels) });
    const info = await ctx.docker.getVolume(payload.name).inspect();
    if (!isOwned(info.Labels, ctx.nodeId)) throw notOwned('volume', payload.name);
    return { name: info.Name, created: true };
  },
} satisfies Partial<Handlers>;
