import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';
import { Operation, OperationStep } from '../../db/models.ts';
import { Conflict, NotFound } from '../../errors.ts';
import { enqueue, type Queues } from '../../jobs/queues.ts';
import type { Logger } from '../../logger.ts';
import { emitOperationEvents } from '../webhooks/events.ts';
import type { z } from 'zod';
import type { OperationKindSpec, StepDeclaration } from './operation-kind.ts';
import { OPERATION_KINDS, type OperationInput, type OperationKind } from './operation-kinds.ts';

/** What starting an operation needs besides the caller's transaction: the queue it is handed to after commit. */
export type OperationQueue = { queues: Queues; logger: Logger; db: Db };
/** What a domain function that starts operations needs: the database and the queue. */
export type OperationDeps = OperationQueue & { db: Db };

/** Whose operation it is, what it acts on, and what it must wait for. */
export type OperationStart = {
  /** null: a platform operation (nodes), seen by operators only. */
  teamId: number | null;
  target: { type: string; id: string | number };
  /**
   * Operations sharing any key run one at a time, oldest first (e.g. `environment:42`): a copy holds
   * its source and its target, a site's deletion each of the site's environments.
   */
  serialKeys?: readonly string[];
  createdByUserId?: number | null;
};

/**
 * The one way an operation starts: its input checked against its kind's schema, the operation and
 * its steps (`pending` from the first read) written in the caller's transaction, beside the domain
 * change it carries out, so neither exists without the other; and handed to the workers once that
 * transaction commits (never before: a worker could not see it).
 */
export async function startOperation<K extends OperationKind>(
  trx: Knex.Transaction,
  queue: OperationQueue,
  kind: K,
  input: OperationInput<K>,
  start: OperationStart,
): Promise<Operation> {
  const [operation] = await startOperations(trx, queue, kind, [{ input, start }]);
  return operation!;
}

/** The batch form (the scheduler's): any number of operations of one kind in two round trips. */
export async function startOperations<K extends OperationKind>(
  trx: Knex.Transaction,
  queue: OperationQueue,
  kind: K,
  batch: ReadonlyArray<{ input: OperationInput<K>; start: OperationStart }>,
): Promise<Operation[]> {
  const operations = await insertOperations(trx, OPERATION_KINDS[kind], batch);
  if (operations.length === 0) return operations;
  // Its commit writes operation_events, whose numbering lock is held until the commit returns: waiting
  // there for the WAL flush would make every start wait for the fsyncs of all the others, one by one.
  // It commits without waiting, and is flushed right after, outside the lock (where flushes are
  // shared); the 202 (sendAccepted) and the workers wait for that flush, so neither sees an operation
  // a Postgres crash could still take back.
  await trx.raw('SET LOCAL synchronous_commit TO OFF');
  const durable = committed(trx).then(async (done) => {
    if (!done) return false;
    await flushCommits(queue.db).catch((error: unknown) =>
      queue.logger.error({ err: (error as Error).message }, 'could not confirm the flush of started operations'),
    );
    return true;
  });
  for (const operation of operations) durableStarts.set(operation, durable);
  durable
    .then(async (done) => {
      if (done) for (const operation of operations) await dispatchOperation(queue, operation);
    })
    .catch(() => undefined);
  return operations;
}

/** When each operation this process started is on disk (resolves false if its transaction rolled back). */
const durableStarts = new WeakMap<Operation, Promise<boolean>>();

/** Resolves once an operation started by this process is durable (at once for one read from the database). */
export async function operationDurable(operation: Operation): Promise<void> {
  await durableStarts.get(operation);
}

/** A transaction that writes nothing but its id, committed synchronously: the WAL is flushed up to it, so every commit before it is on disk. */
async function flushCommits(db: Db): Promise<void> {
  await db.transaction(async (trx) => {
    await trx.raw('SELECT pg_current_xact_id()');
  });
}

/**
 * The one place operations are written: each input parsed by the kind's schema, the rows and their
 * steps in the caller's transaction, handed to no worker. startOperations hands them over; only
 * tests of the machinery, which drive their own kinds, call this directly.
 */
export async function insertOperations<Spec extends OperationKindSpec>(
  trx: Knex.Transaction,
  spec: Spec,
  batch: ReadonlyArray<{ input: z.output<Spec['input']>; start: OperationStart }>,
): Promise<Operation[]> {
  if (batch.length === 0) return [];
  const rows = (await trx('operations')
    .insert(
      batch.map(({ input, start }) => ({
        team_id: start.teamId,
        kind: spec.kind,
        target_type: start.target.type,
        target_id: String(start.target.id),
        input: spec.input.parse(input),
        serial_keys: [...new Set(start.serialKeys ?? [])],
        created_by_user_id: start.createdByUserId ?? null,
        deadline_seconds: spec.deadlineSeconds,
      })),
    )
    .returning('*')) as Array<Record<string, unknown>>;
  const operations = rows.map((row) => Operation.fromDatabaseJson(row));
  const steps: readonly StepDeclaration[] = spec.steps;
  const stepRows = (await trx('operation_steps')
    .insert(
      operations.flatMap((operation) =>
        steps.map((step, position) => ({ operation_id: operation.id, position, name: step.name, cancellable: step.cancellable ?? false })),
      ),
    )
    .returning('*')) as Array<Record<string, unknown>>;
  for (const operation of operations) {
    insertedSteps.set(
      operation,
      stepRows.filter((row) => row.operation_id === operation.id).map((row) => OperationStep.fromDatabaseJson(row)),
    );
  }
  return operations;
}

/** The steps of operations this process just wrote, as written: the 202 that answers them needs no read. */
const insertedSteps = new WeakMap<Operation, OperationStep[]>();

/** The steps of an operation as `insertOperations` wrote them (undefined for one read from the database). */
export function stepsAsInserted(operation: Operation): OperationStep[] | undefined {
  return insertedSteps.get(operation);
}

/**
 * Resolves true once the transaction has committed: a savepoint released, then each transaction
 * around it; false when any of them rolls back (a savepoint rolled back inside a batch that goes on).
 */
function committed(trx: Knex.Transaction): Promise<boolean> {
  let done: Promise<unknown> = trx.executionPromise;
  for (let outer = trx.parentTransaction; outer; outer = outer.parentTransaction) {
    const level = outer;
    done = done.then(() => level.executionPromise);
  }
  return done.then(
    () => true,
    () => false,
  );
}

/**
 * Hands a committed operation to the workers; the job id is the operation id, so a second call
 * (or the sweeper's) adds nothing. When Redis is down the operation stays `queued` and the sweeper
 * enqueues it later: the caller's answer does not fail for it.
 */
async function dispatchOperation(queue: OperationQueue, operation: Pick<Operation, 'id' | 'kind'>): Promise<boolean> {
  try {
    await enqueue(queue.queues, 'operation.run', { operationId: operation.id }, { jobId: operation.id });
    return true;
  } catch (error) {
    queue.logger.error({ operation_id: operation.id, kind: operation.kind, err: (error as Error).message }, 'operation not enqueued; the sweeper will retry');
    return false;
  }
}

/** Who may see an operation: a team sees its own; operators (scope `platform`) see every one. */
export type OperationScope = { teamId: number } | { platform: true };

export type OperationDetail = { operation: Operation; steps: OperationStep[]; logs: OperationLogLine[] };
export type OperationLogLine = { step: string | null; stream: string; line: string; created_at: Date };

/** Lines of the log shown with an operation. */
export const LOG_TAIL_LINES = 50;

/** An operation with its steps and the last lines of its log; another team's id is not found. */
export async function findOperation(db: Db, scope: OperationScope, id: string): Promise<OperationDetail> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw new NotFound('No such operation');
  const query = Operation.query(db).findById(id);
  if ('teamId' in scope) query.where('team_id', scope.teamId);
  const operation = await query;
  if (!operation) throw new NotFound('No such operation');
  const [steps, logs] = await Promise.all([
    OperationStep.query(db).where({ operation_id: id }).orderBy('position'),
    db('operation_logs').where({ operation_id: id }).orderBy('id', 'desc').limit(LOG_TAIL_LINES).select('step', 'stream', 'line', 'created_at'),
  ]);
  return { operation, steps, logs: (logs as OperationLogLine[]).reverse() };
}

/**
 * Whether the viewer may see the operation (its team's, or a platform one for an operator), in one
 * read of one column: for callers that need nothing else of it (an event stream); else NotFound.
 */
export async function assertOperationVisible(db: Db, viewer: { teamId: number; operator: boolean }, id: string): Promise<void> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw new NotFound('No such operation');
  const row = await Operation.query(db).findById(id).select('team_id');
  if (!row || (row.team_id === null ? !viewer.operator : row.team_id !== viewer.teamId)) throw new NotFound('No such operation');
}

/** The steps of one operation, in the order they run. */
export async function listOperationSteps(db: Db, operationId: string): Promise<OperationStep[]> {
  return OperationStep.query(db).where({ operation_id: operationId }).orderBy('position');
}

/** Whether `id` names one of the platform's own operations (no team: node enrollment). */
export async function isPlatformOperation(db: Db, id: string): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return false;
  const row = await Operation.query(db).findById(id).select('team_id');
  return row !== undefined && row.team_id === null;
}

export type OperationFilters = { status?: string | undefined; kind?: string | undefined; targetType?: string | undefined; targetId?: string | undefined };

export async function listOperations(db: Db, scope: OperationScope, filters: OperationFilters, page: { page: number; pageSize: number }) {
  const base = db('operations').modify((query) => {
    if ('teamId' in scope) query.where('team_id', scope.teamId);
    if (filters.status) query.where('status', filters.status);
    if (filters.kind) query.where('kind', filters.kind);
    if (filters.targetType) query.where('target_type', filters.targetType);
    if (filters.targetId) query.where('target_id', filters.targetId);
  });
  const [{ count }] = (await base.clone().count({ count: '*' })) as [{ count: string }];
  const operations = await Operation.query(db)
    .whereIn('id', base.clone().select('id'))
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const steps =
    operations.length === 0
      ? []
      : await OperationStep.query(db)
          .whereIn(
            'operation_id',
            operations.map((operation) => operation.id),
          )
          .orderBy('position');
  return { operations, steps, total: Number(count) };
}

/**
 * Cancels a queued operation at once; a running one stops before its next step, when the step
 * it is in allows that (`cancellable`; recorded as `cancel_requested_at`). A finished
 * operation, or one in a step that must finish, answers 409.
 */
export async function cancelOperation(deps: { db: Db; queues: Queues; logger: Logger }, scope: OperationScope, id: string): Promise<Operation> {
  const { operation: found } = await findOperation(deps.db, scope, id);
  const outcome = await deps.db.transaction(async (trx) => {
    const operation = (await Operation.query(trx).findById(found.id).forUpdate())!;
    if (operation.status === 'queued') {
      await finishOperation(trx, operation.id, 'cancelled', { error: null });
      return 'cancelled' as const;
    }
    if (operation.status !== 'running')
      throw new Conflict(
        `The operation has already ${operation.status === 'succeeded' ? 'succeeded' : operation.status === 'failed' ? 'failed' : 'been cancelled'}`,
      );
    const runningStep = await OperationStep.query(trx).findOne({ operation_id: operation.id, status: 'running' });
    // Between steps (a retry waiting its turn) there is nothing to interrupt.
    if (runningStep && !runningStep.cancellable)
      throw new Conflict(`The step ${runningStep?.name ?? 'in progress'} cannot be interrupted; wait for the operation to finish`);
    await Operation.query(trx).patch({ cancel_requested_at: new Date(), updated_at: new Date() }).where({ id: operation.id });
    return 'requested' as const;
  });
  if (outcome === 'cancelled') {
    // The job may still be waiting in Redis; the runner would find the operation cancelled anyway.
    await deps.queues
      .get('operations')
      .remove(found.id)
      .catch(() => undefined);
  }
  return (await Operation.query(deps.db).findById(found.id))!;
}

/** Ends an operation: its status, its webhook events, the steps not done marked the same way, and the log trimmed. */
export async function finishOperation(
  trx: Knex | Knex.Transaction,
  id: string,
  status: 'succeeded' | 'failed' | 'cancelled',
  outcome: { error?: Operation['error']; result?: unknown },
): Promise<void> {
  const now = new Date();
  const [ended] = await Operation.query(trx)
    .patch({
      status,
      finished_at: now,
      updated_at: now,
      ...(status === 'succeeded' ? { progress: 100 } : {}),
      ...(outcome.error !== undefined ? { error: outcome.error } : {}),
      ...(outcome.result !== undefined ? { result: outcome.result as never } : {}),
    })
    .where({ id })
    .returning('*');
  // The webhook events of its end are written in this transaction: they exist once the end is committed.
  if (ended) await emitOperationEvents(trx, ended);
  // Steps that will never run now say so, rather than waiting as `pending` forever.
  if (status !== 'succeeded') await OperationStep.query(trx).patch({ status: 'cancelled' }).where({ operation_id: id, status: 'pending' });
  await trx('operation_logs')
    .where({ operation_id: id })
    .whereNotIn('id', trx('operation_logs').where({ operation_id: id }).orderBy('id', 'desc').limit(500).select('id'))
    .delete();
}
