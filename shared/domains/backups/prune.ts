import type { Db } from '../../db/knex.ts';
import { startOperations, type OperationDeps } from '../operations/operations.ts';
import { environmentKey } from '../sites/sites.ts';
import { RESTORING_KINDS } from './backups.operations.ts';

/** Repositories one sweep starts a prune for at most; the next sweep takes the rest. */
export const PRUNE_SWEEP_BATCH = 50;

/**
 * The prune sweep (every BACKUP_PRUNE_SWEEP_INTERVAL_MS): a `backup.prune` operation for each
 * environment whose repository had snapshots forgotten since its last prune and was not pruned
 * within `intervalSeconds` — so a repository is pruned at most once per interval, and one where
 * nothing was forgotten never. Skipped, for a later sweep: an environment being deleted (its
 * repository goes with it), one with a prune already queued or running, and one a restore is reading
 * from (a restore reads without a lock, and a prune repacks the data it reads). Rows another sweep
 * holds are skipped too, so several worker processes never start two prunes of one repository.
 */
export async function startDuePrunes(deps: OperationDeps, options: { now?: Date; intervalSeconds: number }): Promise<number> {
  const now = options.now ?? new Date();
  return deps.db.transaction(async (trx) => {
    const due = (await trx('environment_backup_repositories as r')
      .join('environments as e', 'e.id', 'r.environment_id')
      .whereNotNull('r.forgotten_at')
      .where((query) => query.whereNull('r.pruned_at').orWhere('r.pruned_at', '<=', new Date(now.getTime() - options.intervalSeconds * 1000)))
      .whereNot('e.status', 'deleting')
      .whereNotExists(activeOperations(trx, ['backup.prune']).where('o.target_type', 'environment').whereRaw('o.target_id = r.environment_id::text'))
      .whereNotExists(
        activeOperations(trx, RESTORING_KINDS).whereRaw(
          "o.input->>'restore_backup_id' IN (SELECT b.id::text FROM backups AS b WHERE b.environment_id = r.environment_id)",
        ),
      )
      .orderBy('r.forgotten_at')
      .limit(PRUNE_SWEEP_BATCH)
      .forUpdate('r')
      .skipLocked()
      .select('r.environment_id', 'e.site_id')) as Array<{ environment_id: number; site_id: number }>;
    const started = await startOperations(
      trx,
      deps,
      'backup.prune',
      due.map((row) => ({
        input: { site_id: row.site_id, environment_id: row.environment_id },
        start: { teamId: null, target: { type: 'environment', id: row.environment_id }, serialKeys: [environmentKey({ id: row.environment_id })] },
      })),
    );
    return started.length;
  });
}

function activeOperations(db: Db, kinds: readonly string[]) {
  return db('operations as o').whereIn('o.kind', kinds).whereIn('o.status', ['queued', 'running']).select(db.raw('1'));
}
