import { z } from 'zod';

/**
 * Cron-driven work of the platform on a queue of its own: a tick must not wait for a free slot
 * behind long operations (every slot of the operations queue may be held by site copies for minutes).
 */
export const SCHEDULES_QUEUE = 'schedules';

/** The backup scheduler's tick: what is due is read from Postgres, so the payload is empty. */
export const scheduleJobPayloads = {
  'backups.schedule-tick': z.object({}),
  /** Backup repositories with forgotten snapshots pruned, each at most once per BACKUP_PRUNE_INTERVAL_SECONDS. */
  'backups.prune-sweep': z.object({}),
  /** Certificates from the ACME CA that expire within 30 days are issued anew. */
  'certificates.renewal-sweep': z.object({}),
  /** Fans new webhook events out to endpoints and hands due attempts to `webhooks.deliver`. */
  'webhooks.dispatch': z.object({}),
  /** Subscriptions whose period is over are ended or renewed, overdue ones dunned. */
  'billing.sweep': z.object({}),
} as const;
