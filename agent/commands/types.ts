import type { Readable, Writable } from 'node:stream';
import type { z } from 'zod';
import type { CommandKind, CommandOutput, commandKinds } from '../../shared/agent-protocol/commands.ts';
import type { Docker } from '../runtime/docker.ts';
import type { SftpService } from '../sftp/sftp-service.ts';

export type LogStream = 'info' | 'stdout' | 'stderr';

/** What a command handler gets besides its parsed payload. */
export type CommandContext = {
  docker: Docker;
  dataDir: string;
  nodeId: string;
  allowPull: boolean;
  /** The version this agent reports (its config's `version`); absent in contexts made for tests. */
  agentVersion?: string;
  /** Aborted at the command's deadline or when the agent stops: stop the work where possible. */
  signal: AbortSignal;
  /** A line for the operation's log (batched to the control plane with the progress). */
  log(stream: LogStream, line: string): void;
  progress(percent: number): void;
  /**
   * Streams a GET of the agent API (`/uploads/<id>`) into `writable`, signed as the node; resolves
   * once the body is written and `writable` has finished. Throws a ControlPlaneError on a refusal.
   */
  download(path: string, writable: Writable, signal: AbortSignal): Promise<void>;
  /**
   * Streams `source` as the body of a POST to the agent API (`/streams/<id>`), signed as the node;
   * resolves once the control plane accepted it. (Optional: contexts made for tests leave it out.)
   */
  upload?(path: string, source: Readable, signal: AbortSignal): Promise<void>;
  /** The node's SFTP users and server (absent in contexts made for tests that need none). */
  sftp?: SftpService;
  /** How long one part of an upload is fed (the agent's stream_part_ms; 15 s unless set). */
  streamPartMs?: number;
};

export type Payload<Kind extends CommandKind> = z.output<(typeof commandKinds)[Kind]['payload']>;
export type Handler<Kind extends CommandKind> = (payload: Payload<Kind>, ctx: CommandContext) => Promise<CommandOutput<Kind>>;
export type Handlers = { [Kind in CommandKind]: Handler<Kind> };
