import { Backup } from '../../shared/db/models.ts';
import type { Runbook } from '../operations/runbook.ts';
import { agentCommand } from '../environments/environment-context.ts';
import { backupOf, repositoryKeysOf, type BackupStep } from './backup-context.ts';
import { runRepositoryScript } from './repository-script.ts';
import { backupRepositoryKey } from '../../shared/domains/backups/repository-keys.ts';
import { BACKUP_RUNTIME, backupContainerName, REPOSITORY_OPEN } from '../../shared/domains/backups/restic.ts';

/** Forgets the snapshot (already gone is fine: a retry after it went) and prunes what only it held. */
const FORGET_SCRIPT = String.raw`
set -euo pipefail
${REPOSITORY_OPEN}
found=$(restic snapshots --json --retry-lock ${BACKUP_RUNTIME.retryLock} "$SNAPSHOT_ID" 2>/dev/null || echo '[]')
if [ "$found" = "[]" ] || [ "$found" = "null" ]; then echo '{"forgotten":false}'; exit 0; fi
restic forget --retry-lock ${BACKUP_RUNTIME.retryLock} --prune "$SNAPSHOT_ID" >&2
echo '{"forgotten":true}'
`;

async function forgetSnapshot(step: BackupStep): Promise<unknown> {
  // a retry after the row went: the work is done
  if (!(await Backup.query(step.deps.db).findById(step.input.backup_id))) return { deleted: true };
  const { backup, environment, node } = await backupOf(step);
  const key = await backupRepositoryKey(repositoryKeysOf(step.deps), backup);
  if (!key) {
    // the node's old repository was emptied and removed: nothing of this backup is left in it
    await Backup.query(step.deps.db).deleteById(backup.id);
    return { deleted: true, forgotten: false };
  }
  const command = agentCommand(step, 'forget', node.id);
  const container = backupContainerName(node, backup);
  const run = await runRepositoryScript(step, command, {
    name: container,
    node,
    environment,
    key,
    what: 'forgetting the snapshot',
    script: FORGET_SCRIPT,
    env: { SNAPSHOT_ID: backup.snapshot_id ?? '' },
    scriptTimeoutSeconds: 20 * 60,
  });
  await Backup.query(step.deps.db).deleteById(backup.id);
  const forgotten = /"forgotten":true/.test(run.stdout);
  await step.log(`backup ${backup.id.slice(0, 8)} deleted${forgotten ? ' and its snapshot pruned from the repository' : ' (its snapshot was gone already)'}`);
  return { deleted: true, forgotten };
}

export const backupDeleteRunbook: Runbook<'backup.delete'> = {
  steps: { forget: forgetSnapshot },
};
