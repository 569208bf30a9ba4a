import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import type { Knex } from 'knex';
import { Operation, OperationStep } from '../../shared/db/models.ts';
import { finishOperation } from '../../shared/domains/operations/operations.ts';
import type { WorkerDeps } from '../registry.ts';
import { StepFailed, type RunnableKind } from './runbook.ts';

/** How long an operation waits before asking again whether its turn (serial key) has come. */
export const SERIAL_WAIT_MS = 2_000;
const LOG_LINE_MAX = 4_000;

const finished = new Set(['succeeded', 'failed', 'cancelled']);

/**
 * Runs one operation with its runbook: marks it running, skips the steps whose checkpoint is in
 * Postgres (a retried or redelivered job resumes after its last finished step), records each
 * step's result and the progress, and ends the operation `succeeded`, `failed` (which step, why)
 * or `cancelled`. A step failure that retrying can fix is thrown again for BullMQ to retry with
 * backoff; a permanent one, or the last attempt, fails the operation.
 */
export async function runOperation(deps: WorkerDeps, kind: RunnableKind, operationId: string, job: Job, token: string | undefined): Promise<unknown> {
  const { spec, runbook } = kind;
  const { db } = deps;
  const operation = await Operation.query(db).findById(operationId);
  if (!operation) throw new UnrecoverableError(`operation ${operationId} does not exist`);
  if (finished.has(operation.status)) return { status: operation.status };
  const started = await start(deps, operationId);
  if (started === 'wait') {
    await job.moveToDelayed(Date.now() + SERIAL_WAIT_MS, token);
    throw new DelayedError();
  }
  if (started === 'ended') return { status: 'not started' };

  const rows = await OperationStep.query(db).where({ operation_id: operationId }).orderBy('position');
  const planned = rows.map((row) => row.name).join(',');
  const known = spec.steps.map((step) => step.name).join(',');
  if (planned !== known) {
    await db.transaction((trx) =>
      finishOperation(trx, operationId, 'failed', {
        error: { step: null, message: `This operation's steps (${planned}) are not the ones this worker knows (${known}); it was created by another version` },
      }),
    );
    throw new UnrecoverableError(`steps of ${operationId} do not match kind ${spec.kind}`);
  }
  // Checked when the operation started; checked again here because the row may come from another version.
  const parsed = spec.input.safeParse(operation.input);
  if (!parsed.success) {
    const message = `This operation's input does not match what ${spec.kind} takes (${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`).join('; ')}); it was created by another version`;
    await db.transaction((trx) => finishOperation(trx, operationId, 'failed', { error: { step: null, message } }));
    throw new UnrecoverableError(`input of ${operationId} does not match kind ${spec.kind}`);
  }
  const input: unknown = parsed.data;
  const stepFns: Readonly<Record<string, (typeof runbook.steps)[never]>> = runbook.steps;

  const results: Record<string, unknown> = {};
  for (const [position, step] of spec.steps.entries()) {
    const row = rows[position]!;
    if (row.status === 'succeeded') {
      results[step.name] = row.result;
      continue;
    }
    // The sweeper (deadline) or a cancellation may have ended the operation between two steps.
    const current = (await Operation.query(db).findById(operationId).select('status', 'cancel_requested_at'))!;
    if (current.status !== 'running') return { status: current.status };
    if (current.cancel_requested_at) {
      await db.transaction((trx) => finishOperation(trx, operationId, 'cancelled', { error: null }));
      return { status: 'cancelled' };
    }

    const attempt = row.attempts + 1;
    await OperationStep.query(db)
      .patch({ status: 'running', attempts: attempt, started_at: row.started_at ?? new Date() })
      .where({ operation_id: operationId, position });
    const log = (line: string, stream: 'info' | 'stdout' | 'stderr' = 'info') =>
      db('operation_logs')
        .insert({ operation_id: operationId, step: step.name, stream, line: line.slice(0, LOG_LINE_MAX) })
        .then(() => undefined);
    try {
      const result = (await stepFns[step.name]!({ operation, input, results, attempt, deps, log })) ?? null;
      results[step.name] = result;
      const recorded = await db.transaction(async (trx) => {
        // Ended meanwhile (deadline): its record says which step it was in; leave that as it is.
        const current = await Operation.query(trx).findById(operationId).forUpdate().select('status');
        if (current?.status !== 'running') return false;
        await OperationStep.query(trx)
          .patch({ status: 'succeeded', result: JSON.stringify(result) as never, finished_at: new Date() })
          .where({ operation_id: operationId, position });
        await Operation.query(trx)
          .patch({ progress: Math.floor((100 * (position + 1)) / spec.steps.length), updated_at: new Date() })
          .where({ id: operationId });
        return true;
      });
      if (!recorded) return { status: 'ended while running' };
    } catch (error) {
      await recordStepFailure(deps, {
        operationId,
        position,
        step: step.name,
        job,
        error,
        onFailed: runbook.onFailed && (() => runbook.onFailed!(deps, operation, input)),
      });
    }
  }

  const result = runbook.result ? runbook.result(results) : results[spec.steps.at(-1)!.name];
  await db.transaction(async (trx) => {
    const row = await Operation.query(trx).findById(operationId).forUpdate();
    if (row?.status === 'running') await finishOperation(trx, operationId, 'succeeded', { result: JSON.stringify(result ?? null), error: null });
  });
  return { status: 'succeeded' };
}

/**
 * Marks the operation running (first start or a retry): `ended` when it ended or was cancelled
 * while queued, `wait` when another operation sharing a serial key holds it back.
 */
async function start(deps: WorkerDeps, operationId: string): Promise<'started' | 'ended' | 'wait'> {
  return deps.db.transaction(async (trx) => {
    const row = (await Operation.query(trx).findById(operationId).forUpdate())!;
    if (row.status !== 'queued' && row.status !== 'running') return 'ended';
    if (row.cancel_requested_at) {
      await finishOperation(trx, operationId, 'cancelled', { error: null });
      return 'ended';
    }
    // a retried or resumed operation is `running` already: it holds its keys, others wait for it
    if (row.status === 'queued' && row.serial_keys.length > 0 && !(await isFirstInLine(trx, row))) return 'wait';
    const now = new Date();
    await Operation.query(trx)
      .patch({
        status: 'running',
        attempts: row.attempts + 1,
        started_at: row.started_at ?? now,
        deadline_at: row.deadline_at ?? new Date(now.getTime() + row.deadline_seconds * 1000),
        updated_at: now,
      })
      .where({ id: operationId });
    return 'started';
  });
}

/**
 * Whether the operation may run now: no other operation sharing one of its serial keys is running,
 * and none older is waiting. The check and the start are one transaction holding an advisory lock
 * per key (taken in order, so two starters never deadlock), so of two operations sharing a key that
 * were created at the same moment (their creation times need not follow their commits) only one
 * starts; the other waits for it to end.
 */
async function isFirstInLine(trx: Knex.Transaction, operation: Operation): Promise<boolean> {
  for (const key of [...operation.serial_keys].sort()) await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`berth-serial:${key}`]);
  const blocker = await Operation.query(trx)
    .whereRaw('serial_keys && ?::text[]', [operation.serial_keys])
    .whereNot('id', operation.id)
    .where((query) =>
      query
        .where('status', 'running')
        .orWhere((older) =>
          older
            .where('status', 'queued')
            .where((earlier) =>
              earlier
                .where('created_at', '<', operation.created_at)
                .orWhere((tie) => tie.where('created_at', operation.created_at).where('id', '<', operation.id)),
            ),
        ),
    )
    .first()
    .select('id');
  return !blocker;
}

async function recordStepFailure(
  deps: WorkerDeps,
  failure: { operationId: string; position: number; step: string; job: Job; error: unknown; onFailed?: (() => Promise<void>) | undefined },
): Promise<never> {
  const { operationId, position, step, job, error } = failure;
  const known = error instanceof StepFailed;
  // Messages of StepFailed are written for users; anything else is a bug whose details stay in our logs.
  const message =
    known || error instanceof UnrecoverableError
      ? (error as Error).message
      : `Step ${step} failed unexpectedly; the operators have the details (operation ${operationId})`;
  deps.logger.error({ operation_id: operationId, step, attempt: job.attemptsMade + 1, err: error }, 'operation step failed');
  await deps.db('operation_logs').insert({ operation_id: operationId, step, stream: 'stderr', line: `${step}: ${message}`.slice(0, LOG_LINE_MAX) });
  const permanent = (known && error.permanent) || error instanceof UnrecoverableError;
  const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
  if (!permanent && !lastAttempt) throw error; // BullMQ retries after its backoff; the step stays `running`
  await deps.db.transaction(async (trx) => {
    await OperationStep.query(trx).patch({ status: 'failed', finished_at: new Date() }).where({ operation_id: operationId, position });
    await finishOperation(trx, operationId, 'failed', {
      error: { step, message, exit_code: known ? error.exitCode : null, stderr_tail: known ? error.stderrTail : null },
    });
  });
  await failure
    .onFailed?.()
    .catch((hookError: unknown) => deps.logger.error({ operation_id: operationId, err: hookError }, "the runbook's failure hook failed"));
  throw new UnrecoverableError(message);
}
