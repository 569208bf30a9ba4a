import { commandKinds, isCommandKind, type CommandKind } from '../../shared/agent-protocol/commands.ts';
import { containerCommands } from './containers.ts';
import { directoryCommands } from './directories.ts';
import { directorySyncCommands } from './directory-sync.ts';
import { CommandFailure } from './failure.ts';
import { fileCommands } from './files.ts';
import { fileFetchCommands } from './files-fetch.ts';
import { imageCommands } from './images.ts';
import { networkCommands } from './networks.ts';
import { pingCommands } from './ping.ts';
import { runtimeCommands } from './runtime.ts';
import { sftpCommands } from './sftp.ts';
import { streamUploadCommands } from './stream-upload.ts';
import type { CommandContext, Handler, Handlers } from './types.ts';
import { volumeCommands } from './volumes.ts';

/** Every kind of shared/agent-protocol/commands.ts has exactly one handler (the type checks it). */
export const handlers: Handlers = {
  ...pingCommands,
  ...runtimeCommands,
  ...imageCommands,
  ...networkCommands,
  ...volumeCommands,
  ...directoryCommands,
  ...directorySyncCommands,
  ...fileCommands,
  ...fileFetchCommands,
  ...containerCommands,
  ...streamUploadCommands,
  ...sftpCommands,
};

/**
 * Runs one command: an unknown kind or a payload its schema refuses fails for good before anything
 * touches the node.
 */
export async function executeCommand(kind: string, payload: unknown, ctx: CommandContext): Promise<unknown> {
  if (!isCommandKind(kind))
    throw new CommandFailure(`unknown command kind "${kind}" (this agent speaks ${Object.keys(commandKinds).length} kinds; upgrade it?)`, { permanent: true });
  const parsed = commandKinds[kind].payload.safeParse(payload ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'payload'}: ${issue.message}`).join('; ');
    throw new CommandFailure(`invalid ${kind} payload: ${problems}`, { permanent: true });
  }
  return (handlers[kind] as Handler<CommandKind>)(parsed.data as never, ctx);
}
