import { OFFLINE_AFTER_SECONDS } from '../../agent-protocol/protocol.ts';
import type { Db } from '../../db/knex.ts';
import type { Operation } from '../../db/models.ts';
import type { Queues } from '../../jobs/queues.ts';

export const WAITING_REASONS = ['waiting_turn', 'no_worker', 'worker_busy', 'retry_backoff', 'not_enqueued', 'node_offline'] as const;

/** Why an unfinished operation is not moving: shown with the operation while it is queued (or running, waiting on a node). */
export type OperationWaiting = {
  reason: (typeof WAITING_REASONS)[number];
  message: string;
  /** Since when (the heartbeat a silent node last sent); null when unknown. */
  since: Date | null;
  /** Until when (a retry's backoff); null when unknown. */
  until: Date | null;
  /** Jobs ahead of it in the queue (worker_busy). */
  position: number | null;
  /** The operation it waits for (waiting_turn), or the node (node_offline). */
  blocked_by: string | null;
};

/**
 * Answers "why is it queued?" for the operations of one answer, cheaply: only queued and running
 * ones are looked at, and the queue's worker count is asked once. Redis being unreachable answers
 * null rather than failing the read.
 */
export function createWaitingProbe(deps: { db: Db; queues: Queues }, now = new Date()) {
  let workers: Promise<number> | undefined;
  const queue = () => deps.queues.get('operations');
  const waiting = (reason: OperationWaiting['reason'], message: string, more: Partial<OperationWaiting> = {}): OperationWaiting => ({
    reason,
    message,
    since: null,
    until: null,
    position: null,
    blocked_by: null,
    ...more,
  });

  async function whyQueued(operation: Operation): Promise<OperationWaiting | null> {
    if (operation.serial_keys.length > 0) {
      const blocker = await deps
        .db('operations')
        .whereRaw('serial_keys && ?::text[]', [operation.serial_keys])
        .whereNot('id', operation.id)
        .where((query) => query.where('status', 'running').orWhere((older) => older.where('status', 'queued').where('created_at', '<', operation.created_at)))
        .orderBy('created_at')
        .first('id', 'kind', 'status');
      if (blocker)
        return waiting('waiting_turn', `Waits for operation ${blocker.id} (${blocker.kind}, ${blocker.status}) on the same resource to finish`, {
          blocked_by: blocker.id,
        });
    }
    workers ??= queue().getWorkersCount();
    if ((await workers) === 0) return waiting('no_worker', 'No worker is connected to the operations queue: it runs once a worker starts');
    const job = await queue().getJob(operation.id);
    const state = job ? await job.getState() : 'missing';
    if (state === 'missing' || state === 'completed' || state === 'failed' || state === 'unknown')
      return waiting('not_enqueued', 'Not in the queue (yet); the sweeper hands it to the workers again within a minute');
    if (state === 'delayed') {
      const until = job!.delay > 0 ? new Date((job!.finishedOn ?? job!.processedOn ?? job!.timestamp) + job!.delay) : null;
      return waiting('retry_backoff', `Failed ${job!.attemptsMade} time(s); it is retried after a pause`, { until: until && until > now ? until : null });
    }
    if (state === 'waiting' || state === 'prioritized' || state === 'waiting-children') {
      const client = await queue().client;
      const [index, length] = await Promise.all([client.lpos(queue().toKey('wait'), operation.id), client.llen(queue().toKey('wait'))]);
      // Workers take from the list's right end: what is right of it runs first.
      const position = index === null ? null : length - 1 - index;
      return waiting('worker_busy', `Waits for a free worker${position === null ? '' : ` (${position} job(s) ahead)`}`, { position });
    }
    return null;
  }

  async function whyRunningStalls(operation: Operation): Promise<OperationWaiting | null> {
    const command = await deps
      .db('agent_commands as c')
      .join('nodes as n', 'n.id', 'c.node_id')
      .where('c.operation_id', operation.id)
      .whereIn('c.status', ['pending', 'delivered'])
      .orderBy('c.created_at', 'desc')
      .first('n.id as node_id', 'n.name', 'n.last_heartbeat_at');
    if (!command) return null;
    const heartbeat = command.last_heartbeat_at as Date | null;
    if (heartbeat && now.getTime() - heartbeat.getTime() <= OFFLINE_AFTER_SECONDS * 1000) return null;
    return waiting(
      'node_offline',
      `Waits for node ${command.name as string}, which has not been heard from${heartbeat ? ` since ${heartbeat.toISOString()}` : ''}`,
      {
        since: heartbeat,
        blocked_by: command.node_id as string,
      },
    );
  }

  return {
    async of(operation: Operation): Promise<OperationWaiting | null> {
      try {
        if (operation.status === 'queued') return await whyQueued(operation);
        if (operation.status === 'running') return await whyRunningStalls(operation);
        return null;
      } catch {
        return null;
      }
    },
  };
}
