import { UnrecoverableError, type Job } from 'bullmq';
import { Operation } from '../../shared/db/models.ts';
import type { JobPayload } from '../../shared/jobs/queues.ts';
import type { WorkerDeps } from '../registry.ts';
import { runOperation } from './runner.ts';

/** `operation.run`: finds the operation's kind and runbook and runs it. */
export async function runOperationProcessor(deps: WorkerDeps, payload: JobPayload<'operation.run'>, job: Job, token?: string): Promise<unknown> {
  const operation = await Operation.query(deps.db).findById(payload.operationId).select('id', 'kind');
  if (!operation) throw new UnrecoverableError(`operation ${payload.operationId} does not exist`);
  const kind = deps.operationKinds.get(operation.kind);
  if (!kind) throw new UnrecoverableError(`no runbook for operation kind ${operation.kind}`);
  return runOperation(deps, kind, operation.id, job, token);
}
