import { CommandFailure } from './failure.ts';
import type { CommandContext, Handlers } from './types.ts';
import { partsOf } from '../runtime/data-dir.ts';

function sftpOf(ctx: CommandContext): NonNullable<CommandContext['sftp']> {
  if (!ctx.sftp) throw new CommandFailure('this agent runs no SFTP server', { permanent: true });
  return ctx.sftp;
}

/** SFTP users pushed by the control plane (agent/sftp): kept on disk, served at once. */
export const sftpCommands = {
  'sftp.users.put': async (payload, ctx) => {
    for (const user of payload.users) partsOf(user.root); // inside the data directory, never the agent's own state
    const sftp = sftpOf(ctx);
    const { written, refused, replaced } = await sftp.store.put(payload.users);
    // a changed password or key list ends the sessions logged in with the old ones
    sftp.server.disconnect(replaced);
    return { written, refused };
  },

  /** Revoked: removed (a tombstone keeps them out for good), then their open sessions cut. */
  'sftp.users.remove': async (payload, ctx) => {
    const sftp = sftpOf(ctx);
    const removed = await sftp.store.remove(payload.users);
    const sessionsClosed = sftp.server.disconnect(payload.users.map((user) => user.id));
    return { removed: removed.length, sessions_closed: sessionsClosed };
  },

  /** The control plane's whole set, after the agent started: what was lost comes back, what was revoked meanwhile goes. */
  'sftp.users.sync': async (payload, ctx) => {
    for (const user of payload.users) partsOf(user.root);
    const sftp = sftpOf(ctx);
    const { written, refused, removed, cut } = await sftp.store.sync(payload.users, payload.revoked, payload.keep_ids);
    const sessionsClosed = sftp.server.disconnect(cut);
    return { written, refused, removed, sessions_closed: sessionsClosed };
  },
} satisfies Partial<Handlers>;
