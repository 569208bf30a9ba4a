import type { AgentCommand, CommandResult } from '../shared/agent-protocol/protocol.ts';
import type { Logger } from '../shared/logger.ts';
import { CONTROL_PLANE_BACKOFF, Backoff, refusedDelay, sleep } from './backoff.ts';
import { CommandFailure } from './commands/failure.ts';
import type { CommandContext } from './commands/types.ts';
import type { Journal } from './journal.ts';
import type { ControlPlaneLink } from './link.ts';
import { ProgressReporter } from './progress.ts';
import { type ControlPlaneError, type ProtocolClient } from './protocol-client.ts';

/** Why a command's signal aborted: its deadline, or the agent stopping. */
export class DeadlineExceeded extends Error {
  constructor() {
    super('deadline exceeded');
  }
}
export class AgentStopping extends Error {
  constructor() {
    super('the agent stopped before the command finished');
  }
}

const MAX_TIMER_MS = 2 ** 31 - 1;

export type RunnerDeps = {
  client: ProtocolClient;
  journal: Journal;
  link: ControlPlaneLink;
  logger: Logger;
  concurrency: number;
  /** The handlers' view of the node (docker, data dir, node id), for one command. */
  context(signal: AbortSignal, reporter: ProgressReporter): CommandContext;
  /** The control plane refused our protocol: the agent must stop. */
  onFatal(error: ControlPlaneError): void;
};

/**
 * Runs delivered commands: at most `concurrency` at once, each until its deadline; a finished one is
 * journaled BEFORE its result is posted (then posted until the control plane acknowledges it), and a
 * redelivered one is answered from the journal, or ignored while it is still running.
 */
export class CommandRunner {
  private readonly deps: RunnerDeps;
  private readonly inFlight = new Map<string, { done: Promise<void>; controller: AbortController }>();
  private readonly reports = new Set<Promise<void>>();
  private readonly reporting = new Set<string>();
  private readonly reportsStop = new AbortController();
  private slotFreed: (() => void) | null = null;

  constructor(deps: RunnerDeps) {
    this.deps = deps;
  }

  get free(): number {
    return Math.max(0, this.deps.concurrency - this.inFlight.size);
  }

  /** Resolves when a slot is free (or `signal` aborts). */
  async waitForSlot(signal: AbortSignal): Promise<void> {
    while (this.free === 0 && !signal.aborted) {
      await new Promise<void>((resolve) => {
        const done = () => {
          signal.removeEventListener('abort', done);
          this.slotFreed = null;
          resolve();
        };
        this.slotFreed = done;
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  /** Takes one delivered command; returns once it is started (or answered), not when it ends. */
  async accept(command: AgentCommand): Promise<void> {
    const { logger, journal } = this.deps;
    if (journal.isRunning(command.id)) {
      logger.debug({ command: command.id, delivery: command.delivery }, 'redelivered while still running: ignored');
      return;
    }
    const recorded = await journal.get(command.id);
    if (recorded) {
      logger.info(
        { command: command.id, kind: command.kind, delivery: command.delivery, status: recorded.outcome.status },
        'redelivered after it finished: answering from the journal',
      );
      this.report(command.id, recorded.outcome);
      return;
    }
    journal.begin(command.id);
    const controller = new AbortController();
    const done = this.run(command, controller).finally(() => {
      this.inFlight.delete(command.id);
      journal.end(command.id);
      this.slotFreed?.();
    });
    this.inFlight.set(command.id, { done, controller });
  }

  /**
   * Stops: in-flight commands get `graceMs` to finish, then are failed ("the agent stopped"); results
   * not yet acknowledged get a few more seconds (they are journaled: a redelivery answers them).
   */
  async drain(graceMs: number, reportGraceMs = 5_000): Promise<void> {
    const all = () => Promise.allSettled([...this.inFlight.values()].map((entry) => entry.done));
    if (this.inFlight.size > 0) {
      this.deps.logger.info({ running: [...this.inFlight.keys()], grace_ms: graceMs }, 'waiting for running commands');
      await Promise.race([all(), sleep(graceMs)]);
      for (const entry of this.inFlight.values()) entry.controller.abort(new AgentStopping());
      await all();
    }
    await Promise.race([Promise.allSettled([...this.reports]), sleep(reportGraceMs)]);
    this.reportsStop.abort();
    await Promise.allSettled([...this.reports]);
  }

  private async run(command: AgentCommand, controller: AbortController): Promise<void> {
    const { logger, journal } = this.deps;
    const started = Date.now();
    const deadline = Date.parse(command.deadline_at);
    const timer = Number.isFinite(deadline)
      ? setTimeout(() => controller.abort(new DeadlineExceeded()), Math.min(MAX_TIMER_MS, Math.max(0, deadline - Date.now())))
      : null;
    const reporter = new ProgressReporter(this.deps.client, command.id);
    logger.info({ command: command.id, kind: command.kind, delivery: command.delivery }, 'command started');
    let outcome: CommandResult;
    try {
      if (!Number.isFinite(deadline)) throw new CommandFailure(`invalid deadline_at "${command.deadline_at}"`, { permanent: true });
      if (controller.signal.aborted) throw controller.signal.reason;
      // the handlers (and what they import) load with the first command, not at start: idle memory
      const work = import('./commands/registry.ts').then(({ executeCommand }) =>
        executeCommand(command.kind, command.payload, this.deps.context(controller.signal, reporter)),
      );
      work.catch(() => {}); // when the deadline wins the race, the work's own ending is not an error to report
      const result = await Promise.race([work, aborted(controller.signal)]);
      outcome = { status: 'succeeded', result: result ?? null };
    } catch (error) {
      outcome = failureOf(error);
    } finally {
      if (timer) clearTimeout(timer);
    }
    try {
      await journal.record(command.id, command.kind, outcome);
    } catch (error) {
      // the result still goes out: once the control plane has it, it does not deliver the command again
      logger.error({ command: command.id, error: (error as Error).message }, 'could not journal the result');
    }
    // the last log lines go before the result (the operation's log reads in order); journaled first,
    // so a slow control plane never leaves a finished command unrecorded
    await reporter.close();
    const duration_ms = Date.now() - started;
    if (outcome.status === 'succeeded') logger.info({ command: command.id, kind: command.kind, duration_ms }, 'command succeeded');
    else logger.warn({ command: command.id, kind: command.kind, duration_ms, error: outcome.error.message }, 'command failed');
    this.report(command.id, outcome);
  }

  /** Posts a result until the control plane acknowledges it, in the background. */
  private report(commandId: string, outcome: CommandResult): void {
    if (this.reporting.has(commandId)) return;
    this.reporting.add(commandId);
    const promise = this.postResult(commandId, outcome).finally(() => {
      this.reports.delete(promise);
      this.reporting.delete(commandId);
    });
    this.reports.add(promise);
  }

  private async postResult(commandId: string, outcome: CommandResult): Promise<void> {
    const { client, link, logger } = this.deps;
    const signal = this.reportsStop.signal;
    const backoff = new Backoff(CONTROL_PLANE_BACKOFF);
    while (!signal.aborted) {
      try {
        await client.result(commandId, outcome, signal);
        link.up();
        return;
      } catch (error) {
        if (signal.aborted) break;
        const kind = link.down(error);
        if (kind === 'protocol') return this.deps.onFatal(error as ControlPlaneError);
        if (kind === 'rejected') {
          // 404: the command is gone; 409: it already ended the other way. Nothing to retry.
          logger.warn({ command: commandId, error: (error as Error).message }, 'the control plane did not take the result');
          return;
        }
        await sleep(kind === 'unreachable' ? backoff.next() : refusedDelay(), signal);
      }
    }
    logger.info({ command: commandId }, 'result not acknowledged before stopping: it is journaled and answers the redelivery');
  }
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

export function failureOf(error: unknown): Extract<CommandResult, { status: 'failed' }> {
  const failure = error instanceof CommandFailure ? error : null;
  const message = error instanceof Error ? error.message : String(error);
  return {
    status: 'failed',
    error: {
      message: message.length > 2000 ? `${message.slice(0, 1997)}...` : message,
      exit_code: failure?.exitCode ?? null,
      stderr_tail: failure?.stderrTail ?? null,
      permanent: failure?.permanent ?? false,
    },
  };
}
