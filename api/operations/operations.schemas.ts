import { z } from 'zod';
import type { Request, Response } from 'express';
import type { Context } from '../../shared/context.ts';
import type { Operation, OperationStep } from '../../shared/db/models.ts';
import { sendData } from '../v1/envelope.ts';
import { listOperationSteps, operationDurable, stepsAsInserted, type OperationLogLine } from '../../shared/domains/operations/operations.ts';
import { WAITING_REASONS, type OperationWaiting } from '../../shared/domains/operations/operation-waiting.ts';

const statuses = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
const timestamp = z.string().describe('ISO 8601 UTC');

export const operationStepJson = z
  .object({
    name: z.string(),
    status: z.enum(['pending', 'running', 'succeeded', 'failed', 'cancelled']),
    cancellable: z.boolean().describe('Whether a cancel request is honoured (before the next step) while this step runs'),
    attempts: z.number().int(),
    started_at: timestamp.nullable(),
    finished_at: timestamp.nullable(),
  })
  .meta({ id: 'OperationStep' });

export const operationWaitingJson = z
  .object({
    reason: z
      .enum(WAITING_REASONS)
      .describe(
        '`waiting_turn`: another operation on the same resource runs or is older (`blocked_by`); `no_worker`: no worker is connected to the queue; ' +
          '`worker_busy`: its job waits for a free worker (`position` jobs ahead); `retry_backoff`: it failed and is retried after a pause (`until`); ' +
          '`not_enqueued`: its job is not in the queue, the sweeper enqueues it again; `node_offline` (running): the step waits for a node ' +
          '(`blocked_by`) whose last heartbeat (`since`) is older than the offline threshold',
      ),
    message: z.string().describe('The reason in a sentence'),
    since: timestamp.nullable(),
    until: timestamp.nullable(),
    position: z.number().int().nullable(),
    blocked_by: z.string().nullable().describe('The operation (waiting_turn) or node (node_offline) it waits for'),
  })
  .meta({ id: 'OperationWaiting' });

export const operationJson = z
  .object({
    id: z.uuid(),
    kind: z.string().meta({ examples: ['node.enroll', 'site.create'] }),
    status: z.enum(statuses),
    progress: z.number().int().min(0).max(100),
    target: z.object({ type: z.string(), id: z.string() }),
    input: z.record(z.string(), z.unknown()).describe('The parameters the operation was started with (never secrets)'),
    result: z.unknown().describe('What the operation produced, once succeeded'),
    error: z
      .object({
        step: z.string().nullable().describe('The step that failed'),
        message: z.string(),
        exit_code: z.number().int().nullable().optional(),
        stderr_tail: z.string().nullable().optional().describe('The last lines the failing command wrote to stderr'),
      })
      .nullable(),
    steps: z.array(operationStepJson),
    attempts: z.number().int().describe('How many times a worker has started it (retries and resumptions included)'),
    created_by_user_id: z.number().int().nullable(),
    created_at: timestamp,
    started_at: timestamp.nullable(),
    finished_at: timestamp.nullable(),
    deadline_at: timestamp.nullable(),
    cancel_requested_at: timestamp.nullable(),
    waiting: operationWaitingJson
      .nullable()
      .describe(
        'Why it is not moving, for a queued operation (or a running one whose step waits on a node); null otherwise, and in the 202 answer that starts it',
      ),
  })
  .meta({ id: 'Operation' });

export const operationDetailJson = operationJson
  .extend({
    logs: z
      .array(z.object({ step: z.string().nullable(), stream: z.enum(['info', 'stdout', 'stderr']), line: z.string(), created_at: timestamp }))
      .describe('The last 50 log lines, oldest first'),
  })
  .meta({ id: 'OperationDetail' });

export const operationsQuery = z.object({
  status: z.enum(statuses).optional(),
  kind: z.string().max(100).optional(),
  target_type: z.string().max(100).optional(),
  target_id: z.string().max(100).optional(),
});

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function operationView(operation: Operation, steps: OperationStep[], waiting: OperationWaiting | null = null): z.infer<typeof operationJson> {
  return {
    id: operation.id,
    kind: operation.kind,
    status: operation.status,
    progress: operation.progress,
    target: { type: operation.target_type, id: operation.target_id },
    input: operation.input,
    result: operation.result ?? null,
    error: operation.error,
    steps: steps.map((step) => ({
      name: step.name,
      status: step.status,
      cancellable: step.cancellable,
      attempts: step.attempts,
      started_at: iso(step.started_at),
      finished_at: iso(step.finished_at),
    })),
    attempts: operation.attempts,
    created_by_user_id: operation.created_by_user_id,
    created_at: operation.created_at.toISOString(),
    started_at: iso(operation.started_at),
    finished_at: iso(operation.finished_at),
    deadline_at: iso(operation.deadline_at),
    cancel_requested_at: iso(operation.cancel_requested_at),
    waiting: waiting && { ...waiting, since: iso(waiting.since), until: iso(waiting.until) },
  };
}

export function operationDetailView(
  operation: Operation,
  steps: OperationStep[],
  logs: OperationLogLine[],
  waiting: OperationWaiting | null = null,
): z.infer<typeof operationDetailJson> {
  return {
    ...operationView(operation, steps, waiting),
    logs: logs.map((log) => ({ step: log.step, stream: log.stream as 'info', line: log.line, created_at: new Date(log.created_at).toISOString() })),
  };
}

/**
 * The answer of every route that started an operation (the operation is handed to the workers when
 * its transaction commits): 202, `Location: /v1/operations/{id}`, and the operation as it now stands
 * (queued, its steps pending). With `around`, the resource it changes is shown beside it
 * (`{...around, operation}`); without, the operation is the answer.
 */
export async function sendAccepted(
  ctx: Pick<Context, 'db'>,
  req: Request,
  res: Response,
  operation: Operation,
  around?: Record<string, unknown>,
): Promise<void> {
  // never answered before it is on disk (see startOperations)
  await operationDurable(operation);
  const view = operationView(operation, stepsAsInserted(operation) ?? (await listOperationSteps(ctx.db, operation.id)));
  res.setHeader('Location', `/v1/operations/${operation.id}`);
  sendData(req, res, around ? { ...around, operation: view } : view, 202);
}
