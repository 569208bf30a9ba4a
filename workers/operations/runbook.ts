import type { Operation } from '../../shared/db/models.ts';
import type { z } from 'zod';
import type { OperationKindSpec } from '../../shared/domains/operations/operation-kind.ts';
import type { OPERATION_KINDS, OperationKind } from '../../shared/domains/operations/operation-kinds.ts';
import type { WorkerDeps } from '../registry.ts';

/** What a step sees: its operation and its parsed input, the checkpoints of the steps before it, and a log. */
export type StepContext<Input = unknown> = {
  operation: Operation;
  /** The operation's input, parsed by its kind's schema. */
  input: Input;
  /** The result each earlier step returned, by step name (read back from Postgres on a retry). */
  results: Readonly<Record<string, unknown>>;
  /** 1 on the first run of this step, 2 on its first retry, ... */
  attempt: number;
  deps: WorkerDeps;
  log(line: string, stream?: 'info' | 'stdout' | 'stderr'): Promise<void>;
};

/**
 * Does a step's work and returns its checkpoint (JSON). It must be idempotent: a worker that dies
 * mid-step runs the step again, so it checks what already exists before it creates.
 */
export type StepFn<Input = unknown> = (step: StepContext<Input>) => Promise<unknown>;

/**
 * How one kind of operation is carried out: a function for each of its steps, by the names its
 * declaration gives (shared/domains/<domain>/<domain>.operations.ts), so a missing, extra or
 * misspelt step does not compile. The order is the declaration's.
 */
export type RunbookOf<Spec extends OperationKindSpec> = {
  steps: { readonly [Name in Spec['steps'][number]['name']]: StepFn<z.output<Spec['input']>> };
  /** The operation's result from the steps' checkpoints (default: the last step's). */
  result?(results: Readonly<Record<string, unknown>>): unknown;
  /** After the operation failed (a step's last attempt or a permanent failure): what it targets takes the outcome. */
  onFailed?(deps: WorkerDeps, operation: Operation, input: z.output<Spec['input']>): Promise<void>;
};

/** The runbook of a kind of the catalogue. */
export type Runbook<K extends OperationKind> = RunbookOf<(typeof OPERATION_KINDS)[K]>;

/** A runbook for every kind: a kind without one does not compile. */
export type Runbooks = { readonly [K in OperationKind]: Runbook<K> };

/**
 * A kind the workers can run: its declaration and its runbook, checked against each other by
 * `runnableKind`. The runner parses the input with the same declaration before any step sees it,
 * which is what lets it hold runbooks of different inputs in one table.
 */
export type RunnableKind = { spec: OperationKindSpec; runbook: RunbookOf<OperationKindSpec> };

export function runnableKind<Spec extends OperationKindSpec>(spec: Spec, runbook: RunbookOf<Spec>): RunnableKind {
  return { spec, runbook: runbook as unknown as RunbookOf<OperationKindSpec> };
}

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
