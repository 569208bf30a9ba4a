import type { components } from './generated/schema.ts';
import { sleep } from './retry-policy.ts';

export type OperationDetail = components['schemas']['OperationDetail'];

export type WaitOptions = {
  /** Called with the operation at the first poll and whenever its status, progress or running step changes. */
  onProgress?: (operation: OperationDetail) => void | Promise<void>;
  /** Gives up with OperationTimeoutError after this long (default 30 minutes). */
  timeoutMs?: number;
  /** Pause between two polls of GET /v1/operations/{id} (default 1 s). */
  pollIntervalMs?: number;
};

/** A failed or cancelled operation: `step` is the step that failed (null when none ran), `reason` what the API says. */
export class OperationFailedError extends Error {
  readonly operation: OperationDetail;
  readonly step: string | null;
  readonly reason: string;

  constructor(operation: OperationDetail) {
    const step = operation.error?.step ?? operation.steps.find((candidate) => candidate.status === 'failed')?.name ?? null;
    const reason = operation.error?.message ?? operation.status;
    super(`operation ${operation.id} (${operation.kind}) ${operation.status}${step ? ` at step ${step}` : ''}: ${reason}`);
    this.name = 'OperationFailedError';
    this.operation = operation;
    this.step = step;
    this.reason = reason;
  }
}

export class OperationTimeoutError extends Error {
  /** The operation as last seen, still queued or running. */
  readonly operation: OperationDetail;

  constructor(operation: OperationDetail, timeoutMs: number) {
    super(`operation ${operation.id} (${operation.kind}) still ${operation.status} at ${operation.progress}% after ${timeoutMs} ms`);
    this.name = 'OperationTimeoutError';
    this.operation = operation;
  }
}

const DEFAULT_TIMEOUT_MS = 30 * 60_000;
const DEFAULT_POLL_INTERVAL_MS = 1_000;

function progressMark(operation: OperationDetail): string {
  const runningStep = operation.steps.find((step) => step.status === 'running')?.name ?? '';
  return `${operation.status}|${operation.progress}|${runningStep}`;
}

/** Polls an operation until it ends: answers it when it succeeded, throws when it failed, was cancelled or took too long. */
export async function waitForOperation(
  getOperation: (id: string) => Promise<OperationDetail>,
  id: string,
  options: WaitOptions = {},
): Promise<OperationDetail> {
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  let lastMark = '';
  for (;;) {
    const operation = await getOperation(id);
    const mark = progressMark(operation);
    if (mark !== lastMark) await options.onProgress?.(operation);
    lastMark = mark;
    if (operation.status === 'succeeded') return operation;
    if (operation.status === 'failed' || operation.status === 'cancelled') throw new OperationFailedError(operation);
    const left = deadline - Date.now();
    if (left <= 0) throw new OperationTimeoutError(operation, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    await sleep(Math.min(options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS, left));
  }
}
