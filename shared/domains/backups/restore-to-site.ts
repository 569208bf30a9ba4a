import type { Backup, Environment, Operation, Site } from '../../db/models.ts';
import { startOperation, type OperationDeps } from '../operations/operations.ts';
import { findEnvironment } from '../sites/environments.ts';
import { environmentKey, insertSiteLike, siteSlug, type SiteSettings } from '../sites/sites.ts';
import { lockRestorableBackup } from './backups.ts';

/**
 * A new site made from a backup of one of the team's environments: its production environment on
 * the backup's node (where the snapshot is), with the PHP version and table prefix of the
 * environment backed up, and the `site.restore` operation that restores the backup into it. The plan
 * is checked as for any new site (402). The site backed up is not touched, and need not be active.
 */
export async function restoreBackupToNewSite(
  deps: OperationDeps,
  settings: SiteSettings,
  actor: { teamId: number; userId: number },
  from: { siteId: number; kind: string; backupId: string },
  input: { name: string; slug?: string | undefined },
): Promise<{ backup: Backup; site: Site; environment: Environment; operation: Operation }> {
  const slug = siteSlug(input);
  return deps.db.transaction(async (trx) => {
    const { site: source, environment: backedUp } = await findEnvironment(trx, actor.teamId, from.siteId, from.kind);
    const backup = await lockRestorableBackup(trx, backedUp, from.backupId);
    const { site, environment } = await insertSiteLike(
      trx,
      settings,
      actor,
      { name: input.name, slug, region: source.region },
      { ...backedUp, node_id: backup.node_id },
    );
    const operation = await startOperation(
      trx,
      deps,
      'site.restore',
      { site_id: site.id, environment_id: environment.id, restore_backup_id: backup.id, source_environment_id: backedUp.id },
      { teamId: actor.teamId, target: { type: 'site', id: site.id }, serialKeys: [environmentKey(environment)], createdByUserId: actor.userId },
    );
    return { backup, site, environment, operation };
  });
}
