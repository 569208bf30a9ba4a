import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Operation } from '../../db/models.ts';
import { EVENT_TYPES, operationEventTypes, type OperationEventData } from './event-catalogue.ts';

/** `msg_` and 16 random bytes in hex: the `webhook-id` every delivery of the event carries. */
export function newEventId(): string {
  return `msg_${randomBytes(16).toString('hex')}`;
}

/**
 * Writes an event to the outbox in the caller's transaction, so it exists exactly when the change
 * it reports is committed; the dispatcher delivers it after. A team without an enabled endpoint
 * writes nothing (the check is part of the insert).
 */
export async function emitEvent(trx: Knex.Transaction | Knex, event: { teamId: number; type: string; data: unknown; at?: Date }): Promise<void> {
  if (!(event.type in EVENT_TYPES)) throw new Error(`webhook event ${event.type} is not in the catalogue`);
  const body = JSON.stringify({ type: event.type, timestamp: (event.at ?? new Date()).toISOString(), data: event.data });
  await trx.raw(
    `INSERT INTO webhook_events (id, team_id, type, body)
     SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM webhook_endpoints WHERE team_id = ? AND enabled)`,
    [newEventId(), event.teamId, event.type, body, event.teamId],
  );
}

/** The events of an operation's end (platform operations, without a team, raise none). */
export async function emitOperationEvents(trx: Knex.Transaction | Knex, operation: Operation): Promise<void> {
  if (operation.team_id === null) return;
  const status = operation.status;
  if (status !== 'succeeded' && status !== 'failed' && status !== 'cancelled') return;
  const finishedAt = operation.finished_at ?? new Date();
  const data: OperationEventData = {
    operation: {
      id: operation.id,
      kind: operation.kind,
      status,
      target: { type: operation.target_type, id: operation.target_id },
      error: status === 'failed' && operation.error ? { step: operation.error.step ?? null, message: operation.error.message } : null,
      created_at: operation.created_at.toISOString(),
      finished_at: finishedAt.toISOString(),
    },
  };
  for (const type of operationEventTypes(operation.kind, status)) await emitEvent(trx, { teamId: operation.team_id, type, data, at: finishedAt });
}
