import { CommandFailure } from './failure.ts';
import type { CommandContext, Handlers } from './types.ts';
import { engineMessage, isNotFound, statusCodeOf } from '../runtime/docker.ts';

/**
 * The image present on the node. Nodes usually have no registry access: a missing image is pulled
 * only when AGENT_ALLOW_PULL=1, otherwise the command fails for good with a message that says so.
 */
export async function ensureImage(image: string, ctx: CommandContext): Promise<{ image: string; id: string }> {
  try {
    return { image, id: (await ctx.docker.getImage(image).inspect()).Id };
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  if (!ctx.allowPull) {
    throw new CommandFailure(`image ${image} is not present on the node, and pulling is disabled (set AGENT_ALLOW_PULL=1 to allow it)`, { permanent: true });
  }
  ctx.log('info', `pulling ${image}`);
  try {
    const stream = await ctx.docker.pull(image, { abortSignal: ctx.signal });
    await new Promise<void>((resolve, reject) => {
      ctx.docker.modem.followProgress(
        stream,
        (error) => (error ? reject(error) : resolve()),
        (event: { status?: string; id?: string; error?: string }) => {
          if (event.error) ctx.log('stderr', event.error);
          // layer-by-layer byte counts would flood the log: only the phases
          else if (event.status && !event.status.startsWith('Downloading') && !event.status.startsWith('Extracting'))
            ctx.log('info', [event.id, event.status].filter(Boolean).join(': '));
        },
      );
    });
    return { image, id: (await ctx.docker.getImage(image).inspect()).Id };
  } catch (error) {
    if (error instanceof CommandFailure) throw error;
    throw new CommandFailure(`pulling ${image} failed: ${engineMessage(error)}`, { permanent: statusCodeOf(error) === 404 });
  }
}

export const imageCommands = {
  'image.ensure': (payload, ctx) => ensureImage(payload.image, ctx),
} satisfies Partial<Handlers>;
