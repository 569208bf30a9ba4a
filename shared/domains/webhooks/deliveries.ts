import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';
import { Conflict, NotFound } from '../../errors.ts';
import { countOf, onePage, type Page } from '../teams/page.ts';
import type { AttemptRow, DeliveryRow, EndpointRow } from './endpoint-rows.ts';
import { findEndpoint } from './endpoints.ts';
import { newEventId } from './events.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A delivery with what it sends: its event's type and id (the `webhook-id`). */
export type DeliveryView = DeliveryRow & { event_type: string };
export type DeliveryFilters = { status?: DeliveryRow['status'] | undefined; eventType?: string | undefined };

function deliveriesOf(db: Db | Knex.Transaction) {
  return db('webhook_deliveries as d').join('webhook_events as e', 'e.id', 'd.event_id');
}

export async function listDeliveries(
  db: Db,
  teamId: number,
  endpointId: number,
  filters: DeliveryFilters,
  page: Page,
): Promise<{ rows: DeliveryView[]; total: number }> {
  await findEndpoint(db, teamId, endpointId);
  const base = deliveriesOf(db)
    .where('d.endpoint_id', endpointId)
    .modify((query) => {
      if (filters.status) query.where('d.status', filters.status);
      if (filters.eventType) query.where('e.type', filters.eventType);
    });
  const [rows, total] = await Promise.all([
    onePage(
      base
        .clone()
        .select('d.*', 'e.type as event_type')
        .orderBy([
          { column: 'd.created_at', order: 'desc' },
          { column: 'd.id', order: 'desc' },
        ]),
      page,
    ) as Promise<DeliveryView[]>,
    countOf(base.clone(), 'd.id'),
  ]);
  return { rows, total };
}

export async function findDelivery(
  db: Db,
  teamId: number,
  endpointId: number,
  deliveryId: string,
): Promise<{ delivery: DeliveryView; body: string; attempts: AttemptRow[] }> {
  await findEndpoint(db, teamId, endpointId);
  if (!UUID.test(deliveryId)) throw new NotFound('No such delivery');
  const delivery = (await deliveriesOf(db).where({ 'd.id': deliveryId, 'd.endpoint_id': endpointId }).first('d.*', 'e.type as event_type', 'e.body')) as
    (DeliveryView & { body: string }) | undefined;
  if (!delivery) throw new NotFound('No such delivery');
  const attempts = (await db('webhook_attempts').where({ delivery_id: deliveryId }).orderBy('number')) as AttemptRow[];
  const { body, ...rest } = delivery;
  return { delivery: rest, body, attempts };
}

function requireEnabled(endpoint: EndpointRow): void {
  if (!endpoint.enabled) throw new Conflict('The endpoint is disabled; enable it first (PATCH with "enabled": true)');
}

/** The same event (same `webhook-id`, same body) sent again, as a new delivery with its own attempts. */
export async function redeliver(db: Db, teamId: number, endpointId: number, deliveryId: string): Promise<DeliveryView> {
  const { delivery } = await findDelivery(db, teamId, endpointId, deliveryId);
  return db.transaction(async (trx) => {
    requireEnabled(await findEndpoint(trx, teamId, endpointId, true));
    const [row] = (await trx('webhook_deliveries')
      .insert({ endpoint_id: endpointId, event_id: delivery.event_id, manual: true, next_attempt_at: trx.fn.now() })
      .returning('*')) as DeliveryRow[];
    return { ...row!, event_type: delivery.event_type };
  });
}

/** A `webhook.test` event for this endpoint alone (made delivered-to already, so no other endpoint gets it). */
export async function sendTestEvent(db: Db, teamId: number, endpointId: number): Promise<DeliveryView> {
  return db.transaction(async (trx) => {
    requireEnabled(await findEndpoint(trx, teamId, endpointId, true));
    const id = newEventId();
    const body = JSON.stringify({
      type: 'webhook.test',
      timestamp: new Date().toISOString(),
      data: { endpoint_id: endpointId, message: 'A test event from Berth' },
    });
    await trx('webhook_events').insert({ id, team_id: teamId, type: 'webhook.test', body, fanned_out_at: trx.fn.now() });
    const [row] = (await trx('webhook_deliveries')
      .insert({ endpoint_id: endpointId, event_id: id, manual: true, next_attempt_at: trx.fn.now() })
      .returning('*')) as DeliveryRow[];
    return { ...row!, event_type: 'webhook.test' };
  });
}
