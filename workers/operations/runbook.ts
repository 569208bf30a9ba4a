import type { Operation } from '../../shared/db/models.ts';
import type { StepPlan } from '../../shared/domains/operations/operations.ts';
import type { WorkerDeps } from '../registry.ts';

/** What a step sees: its operation, the checkpoints of the steps before it, and a log. */
export type StepContext = {
  operation: Operation;
  /** The result each earlier step returned, by step name (read back from Postgres on a retry). */
  results: Readonly<Record<string, unknown>>;
  /** 1 on the first run of this step, 2 on its first retry, ... */
  attempt: number;
  deps: WorkerDeps;
  log(line: string, stream?: 'info' | 'stdout' | 'stderr'): Promise<void>;
};

export type RunbookStep = StepPlan & {
  /**
   * Does the step's work and returns its checkpoint (JSON). It must be idempotent: a worker that
   * dies mid-step runs the step again, so it checks what already exists before it creates.
   */
  run(step: StepContext): Promise<unknown>;
};

/** How one kind of operation is carried out, step by step. */
export type Runbook = {
  kind: string;
  steps: RunbookStep[];
  /** The operation's result from the steps' checkpoints (default: the last step's). */
  result?(results: Readonly<Record<string, unknown>>): unknown;
  /** After the operation failed (a step's last attempt or a permanent failure): what it targets takes the outcome. */
  onFailed?(deps: WorkerDeps, operation: Operation): Promise<void>;
};

/**
 * A step failed in a way the user can act on: `message` says what and why; `permanent` when
 * running it again cannot help (bad credentials, a host without Docker), so no retry is spent.
 */
export class StepFailed extends Error {
  override name = 'StepFailed';
  readonly permanent: boolean;
  readonly exitCode: number | null;
  readonly stderrTail: string | null;

  constructor(message: string, options: { permanent?: boolean; exitCode?: number | null; stderrTail?: string | null; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.permanent = options.permanent ?? false;
    this.exitCode = options.exitCode ?? null;
    this.stderrTail = options.stderrTail ?? null;
  }
}

/** The plan to store with a new operation of this runbook's kind. */
export function stepPlan(runbook: Runbook): StepPlan[] {
  return runbook.steps.map(({ name, cancellable }) => ({ name, cancellable: cancellable ?? false }));
}
