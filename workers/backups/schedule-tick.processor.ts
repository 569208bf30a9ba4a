import { fireDueSchedules } from '../../shared/domains/backups/schedules.ts';
import type { WorkerDeps } from '../registry.ts';

/**
 * Schedules fired per transaction: a batch holds its rows' locks only while its backups are requested.
 * 250 (it was 25): each statement of a batch is set-based, so 1,000 due cost 4 batches' round trips, not 40.
 */
export const SCHEDULE_TICK_BATCH = 250;
/** Batches fired at once, each in its own transaction on its own connection; SKIP LOCKED keeps them on different rows. */
export const SCHEDULE_TICK_PARALLEL = 4;

export type ScheduleTick = { claimed: number; requested: number; alreadyMade: number; skipped: number; failed: number };

/**
 * The backup scheduler's tick (a BullMQ job scheduler, every BACKUP_SCHEDULER_INTERVAL_MS): fires
 * the due schedules batch by batch, a few batches at once, until none is left, and hands each
 * committed `backup.create` operation to the workers (after each batch's commit). Its cost follows the due schedules, never the
 * whole table. Ticks of several worker processes may overlap: each claims rows the others have not
 * locked, and a slot makes one backup whatever happens (an operation not enqueued is picked up by
 * the sweeper).
 */
export async function tickBackupSchedules(deps: WorkerDeps, options: { now?: () => Date; batch?: number; parallel?: number } = {}): Promise<ScheduleTick> {
  const batch = options.batch ?? SCHEDULE_TICK_BATCH;
  const total: ScheduleTick = { claimed: 0, requested: 0, alreadyMade: 0, skipped: 0, failed: 0 };
  const fireUntilNoneDue = async () => {
    for (;;) {
      const counts = await fireDueSchedules(deps, { now: options.now?.() ?? new Date(), batch });
      for (const key of Object.keys(total) as Array<keyof ScheduleTick>) total[key] += counts[key];
      if (counts.claimed < batch) return;
    }
  };
  await Promise.all(Array.from({ length: options.parallel ?? SCHEDULE_TICK_PARALLEL }, fireUntilNoneDue));
  if (total.claimed > 0) deps.logger.info(total, 'backup schedules fired');
  return total;
}
