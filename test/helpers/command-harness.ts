import { expect } from 'vitest';
import { CommandFailure } from '../../agent/commands/failure.ts';
import { executeCommand } from '../../agent/commands/registry.ts';
import type { CommandContext, LogStream } from '../../agent/commands/types.ts';
import { commandKinds, type CommandKind, type CommandOutput, type CommandPayload } from '../../shared/agent-protocol/commands.ts';

export type CommandHarness = {
  /** Every line the commands logged, in order. */
  logs: Array<{ stream: LogStream; line: string }>;
  /** A command context on the given engine and data directory; `download` rejects unless overridden. */
  context(overrides?: Partial<CommandContext>): CommandContext;
  /** Runs a command the way the agent does; its result parsed by the protocol's result schema. */
  run<Kind extends CommandKind>(kind: Kind, payload: CommandPayload<Kind>, overrides?: Partial<CommandContext>): Promise<CommandOutput<Kind>>;
  /** Runs a command that must fail, and returns its CommandFailure. */
  failure(kind: string, payload: unknown, overrides?: Partial<CommandContext>): Promise<CommandFailure>;
};

/**
 * Commands run through executeCommand (agent/commands/registry.ts) as the agent runs them: payload
 * parsed by its schema, no control plane. `dataDir` is read at each call, so it may be set in a beforeAll.
 */
export function commandHarness(options: { docker: CommandContext['docker']; nodeId: string; dataDir: () => string }): CommandHarness {
  const logs: CommandHarness['logs'] = [];

  function context(overrides: Partial<CommandContext> = {}): CommandContext {
    return {
      docker: options.docker,
      dataDir: options.dataDir(),
      nodeId: options.nodeId,
      allowPull: false,
      signal: new AbortController().signal,
      log: (stream, line) => logs.push({ stream, line }),
      progress: () => {},
      download: () => Promise.reject(new Error('no control plane in this test')),
      ...overrides,
    };
  }

  async function run<Kind extends CommandKind>(
    kind: Kind,
    payload: CommandPayload<Kind>,
    overrides: Partial<CommandContext> = {},
  ): Promise<CommandOutput<Kind>> {
    const result = await executeCommand(kind, payload, context(overrides));
    return commandKinds[kind].result.parse(result) as CommandOutput<Kind>;
  }

  async function failure(kind: string, payload: unknown, overrides: Partial<CommandContext> = {}): Promise<CommandFailure> {
    try {
      await executeCommand(kind, payload, context(overrides));
    } catch (error) {
      expect(error).toBeInstanceOf(CommandFailure);
      return error as CommandFailure;
    }
    throw new Error(`${kind} was expected to fail`);
  }

  return { logs, context, run, failure };
}
