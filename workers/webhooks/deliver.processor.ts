import type { Knex } from 'knex';
import type { DeliveryRow, EndpointRow } from '../../shared/domains/webhooks/endpoint-rows.ts';
import { failPendingDeliveries, signingSecrets } from '../../shared/domains/webhooks/endpoints.ts';
import { signedHeaders } from '../../shared/domains/webhooks/signing.ts';
import type { Processor, WorkerDeps } from '../registry.ts';
import { failedTooLong, outcomeOf } from './attempt-outcome.ts';
import { wakeDispatcher } from './dispatch.processor.ts';
import { EXCERPT_BYTES, postOnce, type AttemptResult } from './http-attempt.ts';

const USER_AGENT = 'Berth-Webhooks/1';

type Due = { delivery: DeliveryRow; endpoint: EndpointRow; event: { id: string; body: string } };

/**
 * One attempt of one delivery: signed, sent, logged, and the next step decided (done, again later,
 * or the endpoint disabled). The attempt is counted with a compare-and-set on `attempts`, so a job
 * run twice for the same attempt (a lost lease) records it once. Once recorded, it wakes the
 * dispatcher: the endpoint's next due delivery takes the freed slot at once.
 */
export const deliverWebhookProcessor: Processor<'webhooks.deliver'> = async (deps, payload) => {
  const due = await load(deps, payload.deliveryId);
  if (!due) return { skipped: true };
  const { delivery, endpoint, event } = due;
  if (!endpoint.enabled) {
    await deps
      .db('webhook_deliveries')
      .where({ id: delivery.id, status: 'pending' })
      .update({ status: 'failed', last_error: 'The endpoint was disabled', next_attempt_at: null, leased_until: null, finished_at: new Date() });
    return { skipped: true };
  }
  const headers = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    ...signedHeaders(signingSecrets({ secretKey: deps.secretKey }, endpoint), event.id, event.body),
  };
  const result = await postOnce(endpoint.url, headers, event.body, {
    timeoutMs: deps.config.webhooks.timeoutMs,
    allowPrivate: deps.config.webhooks.allowPrivateTargets,
  });
  try {
    await record(deps, due, headers, result);
  } catch (error) {
    // an answer Postgres cannot store must not make the attempt unrecorded (it would be made again
    // forever): the attempt is recorded without it; a database that is down fails the job instead
    deps.logger.warn({ delivery_id: delivery.id, err: (error as Error).message }, 'webhook attempt recorded without its answer');
    await record(deps, due, headers, { ...result, headers: null, body: null, error: result.error ?? 'the answer could not be stored' });
  }
  // the endpoint has a free slot now: the next of its due deliveries need not wait for the poll
  wakeDispatcher(deps);
  return { status: result.status, error: result.error };
};

async function load(deps: WorkerDeps, deliveryId: string): Promise<Due | null> {
  const row = (await deps
    .db('webhook_deliveries as d')
    .join('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .join('webhook_events as e', 'e.id', 'd.event_id')
    .where({ 'd.id': deliveryId, 'd.status': 'pending' })
    .first(deps.db.raw('row_to_json(d.*) AS delivery, row_to_json(w.*) AS endpoint, e.id AS event_id, e.body AS event_body'))) as
    { delivery: DeliveryRow; endpoint: EndpointRow; event_id: string; event_body: string } | undefined;
  if (!row) return null;
  // row_to_json gives timestamps as strings
  const endpoint = {
    ...row.endpoint,
    previous_secret_expires_at: row.endpoint.previous_secret_expires_at ? new Date(row.endpoint.previous_secret_expires_at) : null,
  };
  return { delivery: row.delivery, endpoint, event: { id: row.event_id, body: row.event_body } };
}

/**
 * Writes the attempt and its consequences in one transaction. The endpoint is locked first, as the
 * API's changes to it lock it before its deliveries: one order, so the two never deadlock.
 */
async function record(deps: WorkerDeps, due: Due, headers: Record<string, string>, result: AttemptResult): Promise<void> {
  const { delivery, endpoint, event } = due;
  const now = new Date();
  const number = delivery.attempts + 1;
  const outcome = outcomeOf(result.status, number, deps.config.webhooks.retryScheduleMs, now);
  await deps.db.transaction(async (trx) => {
    await trx('webhook_endpoints').where({ id: endpoint.id }).forNoKeyUpdate().first('id');
    const counted = await trx('webhook_deliveries')
      .where({ id: delivery.id, status: 'pending', attempts: delivery.attempts })
      .update({
        attempts: number,
        last_status_code: result.status,
        last_error: result.error ?? (outcome.kind === 'succeeded' ? null : `answered ${result.status}`),
        leased_until: null,
        ...(outcome.kind === 'retry'
          ? { next_attempt_at: outcome.at }
          : { status: outcome.kind === 'succeeded' ? 'succeeded' : 'failed', next_attempt_at: null, finished_at: now }),
      });
    if (counted === 0) return; // recorded by another run of this attempt
    await trx('webhook_attempts').insert({
      delivery_id: delivery.id,
      number,
      started_at: result.startedAt,
      duration_ms: result.durationMs,
      request_headers: JSON.stringify(headers),
      request_body: event.body.slice(0, EXCERPT_BYTES),
      response_status: result.status,
      response_headers: result.headers === null ? null : JSON.stringify(result.headers),
      response_body: result.body,
      error: result.error,
    });
    if (outcome.kind === 'succeeded') {
      await trx('webhook_endpoints').where({ id: endpoint.id }).whereNotNull('failing_since').update({ failing_since: null });
      return;
    }
    if (outcome.kind === 'gone') return disable(trx, endpoint.id, 'gone', 'The endpoint answered 410 Gone: it was disabled');
    const [row] = (await trx('webhook_endpoints')
      .where({ id: endpoint.id })
      .update({ failing_since: trx.raw('coalesce(failing_since, ?)', [now]) })
      .returning('failing_since')) as Array<{ failing_since: Date }>;
    if (failedTooLong(row?.failing_since ?? null, now, deps.config.webhooks.disableAfterMs))
      return disable(trx, endpoint.id, 'failing', 'The endpoint failed every attempt for too long: it was disabled');
  });
}

/** Disabled by the workers: what waited fails, and the dispatcher mails the owners (the flag). */
async function disable(trx: Knex.Transaction, endpointId: number, reason: 'gone' | 'failing', message: string): Promise<void> {
  await trx('webhook_endpoints')
    .where({ id: endpointId, enabled: true })
    .update({ enabled: false, disabled_reason: reason, disabled_at: new Date(), updated_at: new Date(), disabled_mail_pending: true });
  await failPendingDeliveries(trx, endpointId, message);
}
