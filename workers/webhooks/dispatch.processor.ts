import type { Db } from '../../shared/db/knex.ts';
import { enqueue } from '../../shared/jobs/queues.ts';
import { WEBHOOKS_QUEUE, webhookJobPayloads } from '../../shared/jobs/webhook.jobs.ts';
import type { WorkerDeps } from '../registry.ts';
import { announceNodeChanges } from './node-events.ts';

/** Events and attempts taken per query; a full batch of events makes the dispatcher run again at once. */
const BATCH = 500;
/** Attempts in flight to one endpoint at most: a hanging receiver holds this many slots, not all. */
export const IN_FLIGHT_PER_ENDPOINT = 10;
/** Events (with their deliveries and attempts) are kept this long. */
const RETENTION_DAYS = 30;
/** Old events are looked for at most this often per worker process, and removed this many at a time. */
const RETENTION_SWEEP_EVERY_MS = 3_600_000;
const RETENTION_BATCH = 1000;
let lastRetentionSweep = 0;
/** How long past its timeout an attempt may take before its delivery is taken again (a crashed worker). */
const LEASE_MARGIN_MS = 60_000;

/**
 * The outbox's poll, run every WEBHOOK_DISPATCH_INTERVAL by any worker: nodes that went silent or
 * came back become events, then the work is handed out (handOutWork), and the owners of endpoints
 * the workers disabled are mailed. Events and hand-made deliveries do not wait for it: their
 * commit wakes the dispatcher (work-listener.ts), and an attempt that succeeds takes its endpoint's
 * next due delivery itself (deliver.processor.ts); the poll is the safety net (a lost notification,
 * a retry come due, a crash).
 */
export async function dispatchWebhooks(deps: WorkerDeps): Promise<{ events: number; attempts: number }> {
  await announceNodeChanges(deps);
  const handed = await handOutWork(deps);
  await mailDisabledEndpoints(deps);
  if (Date.now() - lastRetentionSweep > RETENTION_SWEEP_EVERY_MS) {
    lastRetentionSweep = Date.now();
    await sweepOldEvents(deps);
  }
  return handed;
}

type Run = Promise<{ events: number; attempts: number }>;
/** Per database (a test process may hold several stacks): the run in progress, and the one queued behind it. */
const runs = new WeakMap<Db, { running: Run | null; queued: Run | null }>();

/**
 * New events become one delivery per matching enabled endpoint, and due deliveries are leased and
 * handed to `webhooks.deliver`. Rows are taken with SKIP LOCKED (or claimed by a conditional
 * UPDATE), so workers doing this at once share the work. In one process one run at a time: a call
 * during a run is served by one more run after it (however many calls came meanwhile), so a
 * wake-up is never lost and a burst of them costs two runs, not one each.
 */
export function handOutWork(deps: WorkerDeps): Run {
  const state = runs.get(deps.db) ?? { running: null, queued: null };
  runs.set(deps.db, state);
  const start = (): Run => {
    const run: Run = handOutOnce(deps).finally(() => {
      if (state.running === run) state.running = null;
    });
    state.running = run;
    return run;
  };
  if (state.queued) return state.queued;
  if (!state.running) return start();
  const queued: Run = state.running
    .catch(() => undefined)
    .then(() => {
      state.queued = null;
      return start();
    });
  state.queued = queued;
  return queued;
}

/**
 * Wakes the dispatcher without waiting for it (a notification, a long run of deliveries); a run that
 * fails is logged and left to the next wake-up or the poll. Workers that dispatch nothing
 * (WEBHOOK_DISPATCH_INTERVAL 0) are not woken either.
 */
export function wakeDispatcher(deps: WorkerDeps): void {
  if (deps.config.webhooks.dispatchIntervalMs === 0) return;
  handOutWork(deps).catch((error: Error) => deps.logger.warn({ err: error.message }, 'webhook dispatch failed; the poll will retry'));
}

/** Resolves once no run is in progress or queued in this process (a worker closing waits for it). */
export async function dispatcherIdle(db: Db): Promise<void> {
  for (let state = runs.get(db); state && (state.running || state.queued);) await (state.queued ?? state.running)!.catch(() => undefined);
}

async function handOutOnce(deps: WorkerDeps): Promise<{ events: number; attempts: number }> {
  let events = 0;
  let attempts = 0;
  for (;;) {
    const fannedOut = await fanOut(deps);
    events += fannedOut;
    const due = await leaseDue(deps);
    attempts += due.length;
    // The job id names the attempt and its lease: the same lease dispatched twice adds nothing, and a
    // lease taken again after its job failed (a crashed worker) gets a job of its own, while the failed
    // one stays visible (kept like every failed job, 14 days) instead of being removed to make room.
    if (due.length > 0) {
      await deps.queues.get(WEBHOOKS_QUEUE).addBulk(
        due.map((delivery) => ({
          name: 'webhooks.deliver',
          data: webhookJobPayloads['webhooks.deliver'].parse({ deliveryId: delivery.id }),
          opts: { jobId: `${delivery.id}-${delivery.attempts}-${new Date(delivery.leased_until).getTime()}`, attempts: 1, removeOnComplete: true },
        })),
      );
    }
    if (fannedOut < BATCH) return { events, attempts };
  }
}

async function fanOut(deps: WorkerDeps): Promise<number> {
  const result = await deps.db.raw(
    `WITH taken AS (
       SELECT id, team_id, type FROM webhook_events WHERE fanned_out_at IS NULL ORDER BY created_at LIMIT ? FOR UPDATE SKIP LOCKED
     ), made AS (
       INSERT INTO webhook_deliveries (endpoint_id, event_id, next_attempt_at)
       SELECT w.id, e.id, now() FROM taken e JOIN webhook_endpoints w ON w.team_id = e.team_id AND w.enabled
       WHERE cardinality(w.event_types) = 0
          OR e.type = ANY (w.event_types)
          OR EXISTS (SELECT 1 FROM unnest(w.event_types) AS f(filter) WHERE f.filter LIKE '%.*' AND starts_with(e.type, left(f.filter, -1)))
       RETURNING 1
     )
     UPDATE webhook_events SET fanned_out_at = now() WHERE id IN (SELECT id FROM taken) RETURNING id`,
    [BATCH],
  );
  return (result as { rowCount: number }).rowCount;
}

/** How long a leased delivery is held: its attempt's timeout and a margin. */
export function leaseSecondsOf(config: WorkerDeps['config']): number {
  return (config.webhooks.timeoutMs + LEASE_MARGIN_MS) / 1000;
}

/**
 * Due deliveries, at most IN_FLIGHT_PER_ENDPOINT leased per endpoint at a time, oldest first. The
 * UPDATE checks again that each is still free, so a delivery leased by another dispatcher meanwhile
 * is left to it.
 */
async function leaseDue(deps: WorkerDeps): Promise<Array<{ id: string; attempts: number; leased_until: Date }>> {
  const leaseSeconds = leaseSecondsOf(deps.config);
  const result = await deps.db.raw(
    `WITH busy AS (
       SELECT endpoint_id, count(*) AS leased FROM webhook_deliveries
       WHERE status = 'pending' AND leased_until >= now() GROUP BY endpoint_id
     ), due AS (
       SELECT d.id, d.next_attempt_at, row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at) + coalesce(b.leased, 0) AS place
       FROM webhook_deliveries d LEFT JOIN busy b ON b.endpoint_id = d.endpoint_id
       WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND (d.leased_until IS NULL OR d.leased_until < now())
     )
     UPDATE webhook_deliveries SET leased_until = now() + make_interval(secs => ?)
     WHERE id IN (SELECT id FROM due WHERE place <= ? ORDER BY next_attempt_at LIMIT ?)
       AND status = 'pending' AND (leased_until IS NULL OR leased_until < now())
     RETURNING id, attempts, leased_until`,
    [leaseSeconds, IN_FLIGHT_PER_ENDPOINT, BATCH],
  );
  return (result as { rows: Array<{ id: string; attempts: number; leased_until: Date }> }).rows;
}

/** The owners' mail of each endpoint the workers disabled; the flag stays until the mail is queued. */
async function mailDisabledEndpoints(deps: WorkerDeps): Promise<void> {
  const pending = (await deps.db('webhook_endpoints').where({ disabled_mail_pending: true }).limit(100).select('id', 'disabled_at')) as Array<{
    id: number;
    disabled_at: Date | null;
  }>;
  for (const endpoint of pending) {
    await enqueue(
      deps.queues,
      'mail.webhook-disabled',
      { endpointId: Number(endpoint.id) },
      { jobId: `webhook-disabled-${endpoint.id}-${endpoint.disabled_at?.getTime() ?? 0}` },
    );
    await deps.db('webhook_endpoints').where({ id: endpoint.id, disabled_at: endpoint.disabled_at }).update({ disabled_mail_pending: false });
  }
}

async function sweepOldEvents(deps: WorkerDeps): Promise<void> {
  for (;;) {
    const removed = await deps
      .db('webhook_events')
      .whereIn(
        'id',
        deps
          .db('webhook_events')
          .where('created_at', '<', deps.db.raw(`now() - interval '${RETENTION_DAYS} days'`))
          .whereNotNull('fanned_out_at')
          .limit(RETENTION_BATCH)
          .select('id'),
      )
      .delete();
    if (removed < RETENTION_BATCH) return;
  }
}
