import type { Db } from '../../db/knex.ts';
import type { EventNotifier, EventWake } from './event-notifier.ts';

/** One row of the event log the triggers write (migrations/20261129010000_operation_events.ts). */
export type OperationEvent = {
  id: number;
  team_id: number | null;
  operation_id: string;
  type: 'operation' | 'step' | 'log';
  data: Record<string, unknown>;
  created_at: Date;
};

/** Whose events a stream follows: one operation's, or every operation of a team. */
export type EventScope = { operationId: string } | { teamId: number };

/** Events are kept this long; the operations sweep deletes older ones. */
export const OPERATION_EVENTS_RETENTION_MS = 24 * 3600 * 1000;
/** Rows read at once; a stream behind by more reads again at once. */
export const EVENT_BATCH = 500;

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);

/** The events of `source` after `afterId`, oldest first. */
export async function readOperationEvents(db: Db, source: EventScope, afterId: number, limit = EVENT_BATCH): Promise<OperationEvent[]> {
  return db('operation_events')
    .where('operationId' in source ? { operation_id: source.operationId } : { team_id: source.teamId })
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .select('id', 'team_id', 'operation_id', 'type', 'data', 'created_at');
}

/** The id of the team's latest event (0 without any): where a stream that starts "now" begins. */
export async function latestOperationEventId(db: Db, teamId: number): Promise<number> {
  const row = await db('operation_events').where({ team_id: teamId }).max({ id: 'id' }).first();
  return Number(row?.id ?? 0);
}

/** Deletes the events older than the retention; returns how many went. */
export async function deleteExpiredOperationEvents(db: Db, now = new Date()): Promise<number> {
  return db('operation_events')
    .where('created_at', '<', new Date(now.getTime() - OPERATION_EVENTS_RETENTION_MS))
    .delete();
}

/** What a stream writes to: a batch of events (resolves once written), and the end of an operation. */
export type EventSink = {
  send(events: OperationEvent[]): Promise<void>;
  /** Aborted when the client has gone. */
  signal: AbortSignal;
};

/**
 * Follows `source` from `afterId` until the client goes or the process closes: reads the rows after
 * the last one sent whenever the notifier wakes it (a notification of this source, the 5 s backstop,
 * a reconnect). For one operation, returns its status once it has ended and every event up to its
 * end was sent; undefined when the stream stopped for another reason.
 */
export async function followOperationEvents(
  deps: { db: Db; operationEvents: EventNotifier },
  source: EventScope,
  afterId: number,
  sink: EventSink,
): Promise<{ status: string } | undefined> {
  const stop = AbortSignal.any([sink.signal, deps.operationEvents.closing]);
  let pending = true;
  let wake: (() => void) | undefined;
  const concerns = (event: EventWake | null) =>
    event === null || ('operationId' in source ? event.operationId === source.operationId : event.teamId === source.teamId);
  const unsubscribe = deps.operationEvents.subscribe((event) => {
    if (!concerns(event)) return;
    pending = true;
    wake?.();
  });
  const onStop = () => wake?.();
  stop.addEventListener('abort', onStop);
  let lastId = afterId;
  try {
    while (!stop.aborted) {
      if (!pending) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      pending = false;
      for (;;) {
        if (stop.aborted) return undefined;
        // The status is read before the events: the events of the commit that ended it are then among them.
        const status = 'operationId' in source ? await operationStatus(deps.db, source.operationId) : undefined;
        const events = await readOperationEvents(deps.db, source, lastId);
        if (events.length > 0) {
          if (stop.aborted) return undefined;
          await sink.send(events);
          lastId = events.at(-1)!.id;
        }
        if (events.length === EVENT_BATCH) continue;
        if (status !== undefined && (status === null || TERMINAL.has(status))) return { status: status ?? 'deleted' };
        break;
      }
    }
    return undefined;
  } finally {
    stop.removeEventListener('abort', onStop);
    unsubscribe();
  }
}

async function operationStatus(db: Db, id: string): Promise<string | null> {
  const row = await db('operations').where({ id }).first('status');
  return (row?.status as string | undefined) ?? null;
}
