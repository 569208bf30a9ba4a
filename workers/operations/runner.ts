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
 * The runner's own bookkeeping (running, a step's checkpoint, the end) is committed without waiting
 * for the WAL flush: each of these commits holds the operation_events numbering lock, so flushing
 * each would serialise every operation's commits behind one fsync apiece. A Postgres crash loses at
 * most its last moment of them (never a torn state: the rows are as of an earlier commit), and what
 * they recorded is redone from there: the sweeper enqueues the operation again, the steps resume
 * from their durable checkpoints, and a step's agent command, by its id, answers its recorded result.
 * What starts an operation (the API's transaction) and an agent's reported result are flushed.
 */
async function bookkeeping<T>(db: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(async (trx) => {
    await trx.raw('SET LOCAL synchronous_commit TO OFF');
    return work(trx);
  });
}

/**
 * Runs one operation with its runbook: marks it running, skips the steps whose checkpoint is in
 * Postgres (a retried or redelivered job resumes after its last finished step), records each
 * step's result and the progress, and ends the operation `succeeded`, `failed` (which step, why)
 * or `cancelled`. A step failure that retrying can fix is thrown again for BullMQ to retry with
 * backoff; a permanent one, or the last attempt, fails the operation.
 *
 * Round trips are few: one transaction starts the operation and its first step, one records a step
 * and starts the next (or ends the operation with its last step).
 */
export async function runOperation(deps: WorkerDeps, kind: RunnableKind, operationId: string, job: Job, token: string | undefined): Promise<unknown> {
  const { spec, runbook } = kind;
  const { db } = deps;
  const started = await start(deps, kind, operationId);
  if (started.outcome === 'wait') {
    await job.moveToDelayed(Date.now() + SERIAL_WAIT_MS, token);
    throw new DelayedError();
  }
  if (started.outcome === 'ended') return { status: started.status };
  if (started.outcome === 'mismatch') throw new UnrecoverableError(started.reason);
  const { operation, rows, input } = started;
  const stepFns: Readonly<Record<string, (typeof runbook.steps)[never]>> = runbook.steps;
  const results: Record<string, unknown> = {};
  for (const row of rows) if (row.status === 'succeeded') results[row.name] = row.result;

  // the step start() marked running; then each one the previous step's record started
  let position = started.next;
  while (position < spec.steps.length) {
    const step = spec.steps[position]!;
    const row = rows[position]!;
    const attempt = row.attempts + 1;
    const logs = new LogWriter(db, operationId, step.name);
    try {
      const result = (await stepFns[step.name]!({ operation, input, results, attempt, deps, log: (line, stream) => logs.write(line, stream) })) ?? null;
      await logs.flush();
      results[step.name] = result;
      const next = nextToRun(rows, position + 1);
      const recorded = await bookkeeping(db, async (trx) => {
        // Ended meanwhile (deadline): its record says which step it was in; leave that as it is.
        const current = await Operation.query(trx).findById(operationId).forUpdate().select('status', 'cancel_requested_at');
        if (current?.status !== 'running') return 'ended' as const;
        const now = new Date();
        await trx('operation_steps')
          .where({ operation_id: operationId, position })
          .update({ status: 'succeeded', result: JSON.stringify(result), finished_at: now });
        if (next === spec.steps.length) {
          const outcome = runbook.result ? runbook.result(results) : results[spec.steps.at(-1)!.name];
          await finishOperation(trx, operationId, 'succeeded', { result: JSON.stringify(outcome ?? null), error: null });
          return 'succeeded' as const;
        }
        // a cancel asked for while this step ran is honoured here, before the next one starts
        if (current.cancel_requested_at) {
          await finishOperation(trx, operationId, 'cancelled', { error: null });
          return 'cancelled' as const;
        }
        await Operation.query(trx)
          .patch({ progress: Math.floor((100 * (position + 1)) / spec.steps.length), updated_at: now })
          .where({ id: operationId });
        await markStepRunning(trx, operationId, rows[next]!);
        return 'next' as const;
      });
      if (recorded === 'ended') return { status: 'ended while running' };
      if (recorded !== 'next') return { status: recorded };
      position = next;
    } catch (error) {
      await logs.flush().catch(() => undefined);
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
  // every step had its checkpoint already (a job run again after its last step's record)
  await bookkeeping(db, async (trx) => {
    const row = await Operation.query(trx).findById(operationId).forUpdate().select('status');
    if (row?.status !== 'running') return;
    const outcome = runbook.result ? runbook.result(results) : results[spec.steps.at(-1)!.name];
    await finishOperation(trx, operationId, 'succeeded', { result: JSON.stringify(outcome ?? null), error: null });
  });
  return { status: 'succeeded' };
}

/** The position of the first step from `from` on without a checkpoint (the count of steps when none is left). */
function nextToRun(rows: readonly OperationStep[], from: number): number {
  let position = from;
  while (position < rows.length && rows[position]!.status === 'succeeded') position += 1;
  return position;
}

/** The step's row as it was read stays as it is: its `attempts` + 1 is the attempt this run makes. */
async function markStepRunning(trx: Knex.Transaction, operationId: string, row: OperationStep): Promise<void> {
  await trx('operation_steps')
    .where({ operation_id: operationId, position: row.position })
    .update({ status: 'running', attempts: row.attempts + 1, started_at: row.started_at ?? new Date() });
}

type Started =
  | { outcome: 'started'; operation: Operation; rows: OperationStep[]; input: unknown; next: number }
  | { outcome: 'ended'; status: string }
  | { outcome: 'wait' }
  | { outcome: 'mismatch'; reason: string };

/**
 * Marks the operation running (first start or a retry) and its first step without a checkpoint,
 * in one transaction: `ended` when it ended or was cancelled while queued, `wait` when another
 * operation sharing a serial key holds it back, `mismatch` (failed here) when its steps or input are
 * not what this worker's catalogue declares (a row made by another version).
 */
async function start(deps: WorkerDeps, kind: RunnableKind, operationId: string): Promise<Started> {
  const { spec } = kind;
  return bookkeeping(deps.db, async (trx) => {
    const row = await Operation.query(trx).findById(operationId).forUpdate();
    if (!row) throw new UnrecoverableError(`operation ${operationId} does not exist`);
    if (finished.has(row.status)) return { outcome: 'ended', status: row.status };
    if (row.cancel_requested_at) {
      await finishOperation(trx, operationId, 'cancelled', { error: null });
      return { outcome: 'ended', status: 'not started' };
    }
    // a retried or resumed operation is `running` already: it holds its keys, others wait for it
    if (row.status === 'queued' && row.serial_keys.length > 0 && !(await isFirstInLine(trx, row))) return { outcome: 'wait' };
    const rows = await OperationStep.query(trx).where({ operation_id: operationId }).orderBy('position');
    const planned = rows.map((step) => step.name).join(',');
    const known = spec.steps.map((step) => step.name).join(',');
    if (planned !== known) {
      await finishOperation(trx, operationId, 'failed', {
        error: { step: null, message: `This operation's steps (${planned}) are not the ones this worker knows (${known}); it was created by another version` },
      });
      return { outcome: 'mismatch', reason: `steps of ${operationId} do not match kind ${spec.kind}` };
    }
    // Checked when the operation started; checked again here because the row may come from another version.
    const parsed = spec.input.safeParse(row.input);
    if (!parsed.success) {
      const message = `This operation's input does not match what ${spec.kind} takes (${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`).join('; ')}); it was created by another version`;
      await finishOperation(trx, operationId, 'failed', { error: { step: null, message } });
      return { outcome: 'mismatch', reason: `input of ${operationId} does not match kind ${spec.kind}` };
    }
    const now = new Date();
    const running = {
      status: 'running' as const,
      attempts: row.attempts + 1,
      started_at: row.started_at ?? now,
      deadline_at: row.deadline_at ?? new Date(now.getTime() + row.deadline_seconds * 1000),
      updated_at: now,
    };
    await Operation.query(trx).patch(running).where({ id: operationId });
    Object.assign(row, running);
    const next = nextToRun(rows, 0);
    if (next < rows.length) await markStepRunning(trx, operationId, rows[next]!);
    return { outcome: 'started', operation: row, rows, input: parsed.data, next };
  });
}

/**
 * A step's log lines, written in batches: a line written while the previous batch is still being
 * inserted joins the next one, so a chatty step costs a round trip per batch, not per line. `write`
 * resolves once its line is stored (steps that await it keep their order with what they do next).
 */
class LogWriter {
  private pending: Array<{ operation_id: string; step: string; stream: string; line: string }> = [];
  private waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  private inFlight: Promise<void> | null = null;
  private readonly db: Knex;
  private readonly operationId: string;
  private readonly step: string;

  constructor(db: Knex, operationId: string, step: string) {
    this.db = db;
    this.operationId = operationId;
    this.step = step;
  }

  write(line: string, stream: 'info' | 'stdout' | 'stderr' = 'info'): Promise<void> {
    this.pending.push({ operation_id: this.operationId, step: this.step, stream, line: line.slice(0, LOG_LINE_MAX) });
    const stored = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    if (!this.inFlight) this.inFlight = this.drain();
    return stored;
  }

  /** Resolves once every line written so far is stored. */
  async flush(): Promise<void> {
    while (this.inFlight) await this.inFlight;
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0);
      const waiters = this.waiters.splice(0);
      try {
        await this.db('operation_logs').insert(batch);
        for (const waiter of waiters) waiter.resolve();
      } catch (error) {
        for (const waiter of waiters) waiter.reject(error);
      }
    }
    this.inFlight = null;
  }
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
