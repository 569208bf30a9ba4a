import type { Knex } from 'knex';
import type { DeliveryRow, EndpointRow } from '../../shared/domains/webhooks/endpoint-rows.ts';
import { failPendingDeliveries, signingSecrets } from '../../shared/domains/webhooks/endpoints.ts';
import { signedHeaders } from '../../shared/domains/webhooks/signing.ts';
import type { Processor, WorkerDeps } from '../registry.ts';
import { failedTooLong, outcomeOf } from './attempt-outcome.ts';
import { leaseSecondsOf, wakeDispatcher } from './dispatch.processor.ts';
import { EXCERPT_BYTES, postOnce, type AttemptResult } from './http-attempt.ts';

const USER_AGENT = 'Berth-Webhooks/1';

type Due = { delivery: DeliveryRow; endpoint: EndpointRow; event: { id: string; body: string } };

/** Deliveries one job sends to its endpoint in a row at most; then the dispatcher hands out the rest. */
const IN_A_ROW = 100;

/**
 * One attempt of one delivery: signed, sent, logged, and the next step decided (done, again later,
 * or the endpoint disabled). The attempt is counted with a compare-and-set on `attempts`, so a job
 * run twice for the same attempt (a lost lease) records it once. While the endpoint answers 2xx,
 * the job then leases the endpoint's next due delivery itself and sends it, its slot passed on
 * instead of freed: a backlog flows at the pace of the receiver, not of the dispatcher's runs, and
 * the endpoint keeps at most IN_FLIGHT_PER_ENDPOINT attempts in flight. A failing endpoint gets its
 * next attempts from the dispatcher only.
 */
export const deliverWebhookProcessor: Processor<'webhooks.deliver'> = async (deps, payload) => {
  const due = await load(deps, payload.deliveryId);
  if (!due) return { skipped: true };
  let sent = await attempt(deps, due, IN_A_ROW > 1);
  const first = sent.result;
  for (let count = 1; sent.next; count += 1) {
    sent = await attempt(deps, sent.next, count + 1 < IN_A_ROW);
    if (count + 1 === IN_A_ROW) wakeDispatcher(deps);
  }
  return { status: first.status, error: first.error };
};

/**
 * One attempt, and with `takeNext`, once it succeeded, the endpoint's next due delivery leased
 * (in the same statement as the success on the usual path).
 */
async function attempt(deps: WorkerDeps, due: Due, takeNext: boolean): Promise<{ result: Pick<AttemptResult, 'status' | 'error'>; next: Due | null }> {
  const { delivery, endpoint, event } = due;
  if (!endpoint.enabled) {
    await deps
      .db('webhook_deliveries')
      .where({ id: delivery.id, status: 'pending' })
      .update({ status: 'failed', last_error: 'The endpoint was disabled', next_attempt_at: null, leased_until: null, finished_at: new Date() });
    return { result: { status: null, error: 'The endpoint was disabled' }, next: null };
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
  let next: Due | null | undefined;
  try {
    next = await record(deps, due, headers, result, takeNext);
  } catch (error) {
    // an answer Postgres cannot store must not make the attempt unrecorded (it would be made again
    // forever): the attempt is recorded without it; a database that is down fails the job instead
    deps.logger.warn({ delivery_id: delivery.id, err: (error as Error).message }, 'webhook attempt recorded without its answer');
    next = await record(deps, due, headers, { ...result, headers: null, body: null, error: result.error ?? 'the answer could not be stored' }, takeNext);
  }
  const succeeded = result.status !== null && result.status >= 200 && result.status < 300;
  if (next === undefined && succeeded && takeNext) next = await leaseNextOf(deps, endpoint.id);
  return { result, next: next ?? null };
}

type DueRow = { delivery: DeliveryRow; endpoint: EndpointRow; event_id: string; event_body: string };
const DUE_COLUMNS = 'row_to_json(d.*) AS delivery, row_to_json(w.*) AS endpoint, e.id AS event_id, e.body AS event_body';

function dueOf(row: DueRow): Due {
  // row_to_json gives timestamps as strings
  const endpoint = {
    ...row.endpoint,
    previous_secret_expires_at: row.endpoint.previous_secret_expires_at ? new Date(row.endpoint.previous_secret_expires_at) : null,
  };
  return { delivery: row.delivery, endpoint, event: { id: row.event_id, body: row.event_body } };
}

async function load(deps: WorkerDeps, deliveryId: string): Promise<Due | null> {
  const row = (await deps
    .db('webhook_deliveries as d')
    .join('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .join('webhook_events as e', 'e.id', 'd.event_id')
    .where({ 'd.id': deliveryId, 'd.status': 'pending' })
    .first(deps.db.raw(DUE_COLUMNS))) as DueRow | undefined;
  return row ? dueOf(row) : null;
}

/** Leases (as the dispatcher does) the endpoint's oldest due delivery that no one holds, when `onlyIf`: a statement's `d`. */
const leaseNext = (onlyIf = 'true') => `UPDATE webhook_deliveries SET leased_until = now() + make_interval(secs => ?)
  WHERE ${onlyIf} AND id = (
    SELECT id FROM webhook_deliveries
    WHERE endpoint_id = ? AND status = 'pending' AND next_attempt_at <= now() AND (leased_until IS NULL OR leased_until < now())
    ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED
  )
  RETURNING *`;
const DUE_OF_LEASED = `SELECT ${DUE_COLUMNS} FROM d JOIN webhook_endpoints w ON w.id = d.endpoint_id JOIN webhook_events e ON e.id = d.event_id`;

async function leaseNextOf(deps: WorkerDeps, endpointId: number): Promise<Due | null> {
  const result = (await deps.db.raw(`WITH d AS (${leaseNext()}) ${DUE_OF_LEASED}`, [leaseSecondsOf(deps.config), endpointId])) as { rows: DueRow[] };
  return result.rows[0] ? dueOf(result.rows[0]) : null;
}

/** The row of webhook_attempts an attempt writes. */
function attemptRow(due: Due, headers: Record<string, string>, result: AttemptResult, number: number) {
  return {
    delivery_id: due.delivery.id,
    number,
    started_at: result.startedAt,
    duration_ms: result.durationMs,
    request_headers: JSON.stringify(headers),
    request_body: due.event.body.slice(0, EXCERPT_BYTES),
    response_status: result.status,
    response_headers: result.headers === null ? null : JSON.stringify(result.headers),
    response_body: result.body,
    error: result.error,
  };
}

/**
 * Writes the attempt and its consequences, and returns the next delivery when `takeNext` was done
 * on the way (undefined: not tried). The usual case, a success to an endpoint that was not
 * failing, is one statement that touches the delivery and its attempt only: it takes no lock on
 * the endpoint, so the attempts in flight to one endpoint do not queue behind each other's
 * commits. (An attempt that failed meanwhile and set `failing_since` is cleared by the endpoint's
 * next success, which sees it when it loads the endpoint.) Every other outcome is one transaction
 * that locks the endpoint first, as the API's changes to it lock it before its deliveries: one
 * order, so the two never deadlock.
 */
async function record(deps: WorkerDeps, due: Due, headers: Record<string, string>, result: AttemptResult, takeNext: boolean): Promise<Due | null | undefined> {
  const { delivery, endpoint } = due;
  const now = new Date();
  const number = delivery.attempts + 1;
  const outcome = outcomeOf(result.status, number, deps.config.webhooks.retryScheduleMs, now);
  const attempt = attemptRow(due, headers, result, number);
  if (outcome.kind === 'succeeded' && endpoint.failing_since === null) {
    // the attempt is written, and the next delivery leased, only when this run counted it (the
    // compare-and-set on `attempts`); the lease's snapshot still sees this delivery leased, so it takes another
    const counted = `WITH counted AS (
         UPDATE webhook_deliveries SET attempts = ?, last_status_code = ?, last_error = NULL, leased_until = NULL,
                status = 'succeeded', next_attempt_at = NULL, finished_at = ?
         WHERE id = ? AND status = 'pending' AND attempts = ? RETURNING id
       ), logged AS (
         INSERT INTO webhook_attempts (delivery_id, number, started_at, duration_ms, request_headers, request_body, response_status, response_headers, response_body, error)
         SELECT id, ?, ?, ?, ?::jsonb, ?, ?, ?::jsonb, ?, ? FROM counted RETURNING 1
       )`;
    const bindings = [
      number,
      result.status,
      now,
      delivery.id,
      delivery.attempts,
      attempt.number,
      attempt.started_at,
      attempt.duration_ms,
      attempt.request_headers,
      attempt.request_body,
      attempt.response_status,
      attempt.response_headers,
      attempt.response_body,
      attempt.error,
    ];
    if (!takeNext) {
      await deps.db.raw(`${counted} SELECT count(*) FROM logged`, bindings);
      return undefined;
    }
    const taken = (await deps.db.raw(`${counted}, d AS (${leaseNext('EXISTS (SELECT 1 FROM counted)')}) ${DUE_OF_LEASED}`, [
      ...bindings,
      leaseSecondsOf(deps.config),
      endpoint.id,
    ])) as { rows: DueRow[] };
    return taken.rows[0] ? dueOf(taken.rows[0]) : null;
  }
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
    await trx('webhook_attempts').insert(attempt);
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
  return undefined;
}

/** Disabled by the workers: what waited fails, and the dispatcher mails the owners (the flag). */
async function disable(trx: Knex.Transaction, endpointId: number, reason: 'gone' | 'failing', message: string): Promise<void> {
  await trx('webhook_endpoints')
    .where({ id: endpointId, enabled: true })
    .update({ enabled: false, disabled_reason: reason, disabled_at: new Date(), updated_at: new Date(), disabled_mail_pending: true });
  await failPendingDeliveries(trx, endpointId, message);
}
