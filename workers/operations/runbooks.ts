import { OPERATION_KIND_NAMES, OPERATION_KINDS, type OperationKind } from '../../shared/domains/operations/operation-kinds.ts';
import { backupCreateRunbook } from '../backups/backup-create.runbook.ts';
import { backupDeleteRunbook } from '../backups/backup-delete.runbook.ts';
import { backupPruneRunbook } from '../backups/backup-prune.runbook.ts';
import { backupRestoreRunbook } from '../backups/backup-restore.runbook.ts';
import { siteRestoreRunbook } from '../backups/site-restore.runbook.ts';
import { certificateInstallRunbook } from '../certificates/certificate-install.runbook.ts';
import { certificateIssueRunbook } from '../certificates/certificate-issue.runbook.ts';
import { environmentCachePurgeRunbook, environmentEdgeRunbook } from '../edge/edge.runbooks.ts';
import { enrollRunbook } from '../nodes/enroll.runbook.ts';
import { pingRunbook } from '../nodes/ping.runbook.ts';
import { reconcileRunbook } from '../nodes/reconcile.runbook.ts';
import { environmentDomainsRunbook } from '../site-domains/environment-domains.runbook.ts';
import { environmentPhpRunbook, environmentPushRunbook, environmentRestartRunbook } from '../sites/environment-change.runbooks.ts';
import { environmentCreateRunbook, siteCloneRunbook } from '../sites/environment-copy.runbook.ts';
import { environmentDeleteRunbook, siteDeleteRunbook } from '../sites/environment-removal.runbooks.ts';
import { siteCreateRunbook } from '../sites/site-create.runbook.ts';
import { sftpProvisionRunbook, sftpRevokeRunbook, sftpUpdateRunbook } from '../sftp/sftp-users.runbooks.ts';
import { wordpressCliRunbook, wordpressSearchReplaceRunbook } from '../wordpress/wp-cli.runbooks.ts';
import { packageChangeRunbook, packageInstallRunbook, wordpressRefreshRunbook } from '../wordpress/wordpress-change.runbooks.ts';
import { runnableKind, type RunnableKind, type Runbooks } from './runbook.ts';

/** How the workers carry out each kind of the catalogue (shared/domains/operations/operation-kinds.ts). */
export const runbooks: Runbooks = {
  'node.enroll': enrollRunbook,
  'node.reconcile': reconcileRunbook,
  'node.ping': pingRunbook,
  'site.create': siteCreateRunbook,
  'site.clone': siteCloneRunbook,
  'site.delete': siteDeleteRunbook,
  'environment.create': environmentCreateRunbook,
  'environment.push': environmentPushRunbook,
  'environment.php_change': environmentPhpRunbook,
  'environment.restart': environmentRestartRunbook,
  'environment.delete': environmentDeleteRunbook,
  'environment.domains': environmentDomainsRunbook,
  'environment.edge': environmentEdgeRunbook,
  'certificate.install': certificateInstallRunbook,
  'certificate.issue': certificateIssueRunbook,
  'wordpress.refresh': wordpressRefreshRunbook,
  'wordpress.plugin_install': packageInstallRunbook,
  'wordpress.plugin_activate': packageChangeRunbook,
  'wordpress.plugin_deactivate': packageChangeRunbook,
  'wordpress.plugin_delete': packageChangeRunbook,
  'wordpress.theme_install': packageInstallRunbook,
  'wordpress.theme_activate': packageChangeRunbook,
  'wordpress.theme_delete': packageChangeRunbook,
  'wordpress.cli': wordpressCliRunbook,
  'wordpress.search_replace': wordpressSearchReplaceRunbook,
  'backup.create': backupCreateRunbook,
  'backup.restore': backupRestoreRunbook,
  'site.restore': siteRestoreRunbook,
  'backup.delete': backupDeleteRunbook,
  'backup.prune': backupPruneRunbook,
  'sftp.provision': sftpProvisionRunbook,
  'sftp.update': sftpUpdateRunbook,
  'sftp.revoke': sftpRevokeRunbook,
  'environment.cache_purge': environmentCachePurgeRunbook,
};

/** The kinds the workers run, by name: the catalogue's, and `extra` ones (tests of the operation machinery). */
export function runnableKinds(extra: readonly RunnableKind[] = []): ReadonlyMap<string, RunnableKind> {
  const byKind = new Map<string, RunnableKind>(OPERATION_KIND_NAMES.map((kind) => [kind, catalogued(kind)]));
  for (const kind of extra) {
    if (byKind.has(kind.spec.kind)) throw new Error(`operation kind ${kind.spec.kind} has two runbooks`);
    byKind.set(kind.spec.kind, kind);
  }
  return byKind;
}

function catalogued<K extends OperationKind>(kind: K): RunnableKind {
  return runnableKind(OPERATION_KINDS[kind], runbooks[kind]);
}
