import { Operation, OperationStep } from '../../shared/db/models.ts';
import { finishOperation } from '../../shared/domains/operations/operations.ts';
import { deleteExpiredUploads } from '../../shared/domains/uploads/uploads.ts';
import { deleteExpiredOperationEvents } from '../../shared/domains/operations/operation-events.ts';
import { pruneEnvironmentLogs } from '../../shared/domains/logs/environment-logs.ts';
import { enqueue } from '../../shared/jobs/queues.ts';
import type { WorkerDeps } from '../registry.ts';

/** An operation younger than this may simply not have been enqueued yet (commit, then enqueue). */
export const DISPATCH_GRACE_MS = 30_000;

/**
 * Nothing stays stuck: fails `running` operations past their deadline (naming the step they were
 * in), and enqueues again the unfinished ones whose job is gone — a crash between commit and
 * enqueue, a Redis that lost its data — so they resume from their last checkpoint.
 */
export async function sweepOperations(deps: WorkerDeps, now = new Date()): Promise<{ timedOut: string[]; requeued: string[] }> {
  const timedOut: string[] = [];
  const overdue = await Operation.query(deps.db).where({ status: 'running' }).where('deadline_at', '<', now).select('id');
  for (const { id } of overdue) {
    const ended = await deps.db.transaction(async (trx) => {
      const operation = await Operation.query(trx).findById(id).forUpdate();
      if (!operation || operation.status !== 'running' || !operation.deadline_at || operation.deadline_at > now) return false;
      const step = await OperationStep.query(trx).findOne({ operation_id: id, status: 'running' });
      if (step) await OperationStep.query(trx).patch({ status: 'failed', finished_at: now }).where({ operation_id: id, position: step.position });
      await finishOperation(trx, id, 'failed', {
        error: { step: step?.name ?? null, message: `Did not finish within its deadline of ${operation.deadline_seconds} s` },
      });
      return true;
    });
    if (ended) timedOut.push(id);
  }

  const requeued: string[] = [];
  const queue = deps.queues.get('operations');
  const unfinished = await Operation.query(deps.db)
    .whereIn('status', ['queued', 'running'])
    .where('updated_at', '<', new Date(now.getTime() - DISPATCH_GRACE_MS))
    .select('id', 'kind');
  for (const operation of unfinished) {
    const job = await queue.getJob(operation.id);
    const state = job ? await job.getState() : 'missing';
    if (state !== 'missing' && state !== 'completed' && state !== 'failed' && state !== 'unknown') continue;
    // A job that ended while its operation did not (a crash between the two writes) is replaced.
    if (job) await job.remove().catch(() => undefined);
    await enqueue(deps.queues, 'operation.run', { operationId: operation.id }, { jobId: operation.id });
    requeued.push(operation.id);
  }
  if (timedOut.length + requeued.length > 0) deps.logger.warn({ timed_out: timedOut, requeued }, 'operations swept');
  // Uploads live 24 hours; the sweeper's interval is their grace (findUpload hides them at once).
  const expiredUploads = await deleteExpiredUploads(deps.db, now);
  if (expiredUploads > 0) deps.logger.info({ deleted: expiredUploads }, 'expired uploads deleted');
  // The live event streams keep 24 hours: a client away longer reads the operation itself.
  const expiredEvents = await deleteExpiredOperationEvents(deps.db, now);
  if (expiredEvents > 0) deps.logger.info({ deleted: expiredEvents }, 'expired operation events deleted');
  // Environment logs keep 7 days and 100,000 lines per environment and file (docs/api/logs.md).
  const prunedLogLines = await pruneEnvironmentLogs(deps.db, now);
  if (prunedLogLines > 0) deps.logger.info({ deleted: prunedLogLines }, 'old environment log lines deleted');
  return { timedOut, requeued };
}
