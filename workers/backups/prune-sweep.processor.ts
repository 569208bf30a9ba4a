import { startDuePrunes } from '../../shared/domains/backups/prune.ts';
import type { WorkerDeps } from '../registry.ts';

/**
 * The prune sweep (a BullMQ job scheduler, every BACKUP_PRUNE_SWEEP_INTERVAL_MS; off at 0): a
 * `backup.prune` for each repository with snapshots forgotten since its last prune and not pruned
 * within BACKUP_PRUNE_INTERVAL_SECONDS (a day by default). Backups only forget; this is where their
 * repositories' unused data goes.
 */
export async function sweepBackupPrunes(deps: WorkerDeps, options: { now?: Date } = {}): Promise<{ started: number }> {
  const started = await startDuePrunes(deps, { now: options.now, intervalSeconds: deps.config.backupPrune.intervalSeconds });
  if (started > 0) deps.logger.info({ started }, 'backup repositories to prune');
  return { started };
}
