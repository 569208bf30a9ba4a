import { CommandFailure } from './failure.ts';
import type { Handlers } from './types.ts';
import { engineMessage, isConflict, isNotFound, isOwned, notOwned, ownedLabels } from '../runtime/docker.ts';
import { ensureMetadataBlockFor } from '../runtime/metadata-block.ts';

export const networkCommands = {
  /**
   * A bridge network the node's containers share (the edge proxy reaches sites by name on it), with
   * the host's block of cloud metadata addresses for it (agent/runtime/metadata-block.ts).
   */
  'network.ensure': async (payload, ctx) => {
    const find = async () => {
      try {
        return await ctx.docker.getNetwork(payload.name).inspect();
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    };
    let existing = await find();
    if (!existing) {
      try {
        const created = await ctx.docker.createNetwork({
          Name: payload.name,
          Driver: 'bridge',
          Labels: ownedLabels(ctx.nodeId, payload.labels),
          CheckDuplicate: true,
        });
        await ensureMetadataBlockFor(ctx.docker, payload.name);
        return { id: created.id, created: true };
      } catch (error) {
        // another run of the same command got there first
        if (!isConflict(error)) throw new CommandFailure(`creating network ${payload.name} failed: ${engineMessage(error)}`);
        existing = await find();
        if (!existing) throw error;
      }
    }
    if (!isOwned(existing.Labels, ctx.nodeId)) throw notOwned('network', payload.name);
    await ensureMetadataBlockFor(ctx.docker, payload.name);
    return { id: String(existing.Id), created: false };
  },
} satisfies Partial<Handlers>;
