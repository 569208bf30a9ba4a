import { Backup, BackupRepository, type Environment } from '../../shared/db/models.ts';
import { BACKUP_RUNTIME, REPOSITORY_CHECK, REPOSITORY_OPEN, repositoryDir, resticEnv, type RepositoryKey } from '../../shared/domains/backups/restic.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import type { StepContext } from '../operations/runbook.ts';
import { repositoryKeysOf } from './backup-context.ts';
import { legacyRepositoryKey } from '../../shared/domains/backups/repository-keys.ts';
import { resticRun } from './restic-run.ts';

/**
 * The environment's snapshots in the node's old repository copied into its own (restic copy keeps
 * their tags, and skips what an earlier try copied), then forgotten in the old one. Prints the
 * environment's repository's snapshots: each names its backup by its `backup-<id>` tag.
 */
const MOVE_SCRIPT = String.raw`
set -euo pipefail
${REPOSITORY_CHECK}
legacy() { RESTIC_REPOSITORY="$LEGACY_REPOSITORY" RESTIC_PASSWORD_FILE="$berth_secrets/legacy-password" restic "$@"; }
restic copy --retry-lock ${BACKUP_RUNTIME.retryLock} --from-repo "$LEGACY_REPOSITORY" --from-password-file "$berth_secrets/legacy-password" --tag "env-$ENVIRONMENT_ID" >&2
copied=$(restic snapshots --json --retry-lock ${BACKUP_RUNTIME.retryLock} --tag "env-$ENVIRONMENT_ID")
ids=$(legacy snapshots --json --retry-lock ${BACKUP_RUNTIME.retryLock} --tag "env-$ENVIRONMENT_ID" | grep -o '"id":"[0-9a-f]\{64\}"' | cut -d'"' -f4 || true)
if [ -n "$ids" ]; then legacy forget --retry-lock ${BACKUP_RUNTIME.retryLock} $ids >&2; fi
echo "$copied"
`;

/** The node's old repository, emptied: its unreferenced data pruned (a store's objects; a local one is removed whole afterwards). */
const PRUNE_LEGACY_SCRIPT = String.raw`
set -euo pipefail
${REPOSITORY_OPEN}
RESTIC_REPOSITORY="$LEGACY_REPOSITORY" RESTIC_PASSWORD_FILE="$berth_secrets/legacy-password" restic prune --retry-lock ${BACKUP_RUNTIME.retryLock} >&2
`;

const MOVE_TIMEOUT_SECONDS = 30 * 60;

/**
 * The node's old repository's key when there is work on it for this backup: it still holds a backup
 * of this environment, or none of any environment any more (then it is removed); else null.
 */
export async function legacyToMove(step: StepContext, environment: Pick<Environment, 'id' | 'node_id'>): Promise<RepositoryKey | null> {
  const legacy = await legacyRepositoryKey(repositoryKeysOf(step.deps), environment.node_id);
  if (!legacy) return null;
  const ours = await Backup.query(step.deps.db).where({ environment_id: environment.id, repository: 'node' }).whereNotNull('snapshot_id').resultSize();
  if (ours > 0) return legacy;
  return (await legacySnapshotsLeft(step, environment.node_id)) === 0 ? legacy : null;
}

/** Backups of the node whose snapshot the old repository still holds. */
function legacySnapshotsLeft(step: StepContext, nodeId: string): Promise<number> {
  return Backup.query(step.deps.db).where({ node_id: nodeId, repository: 'node', status: 'succeeded' }).whereNotNull('snapshot_id').resultSize();
}

/**
 * Moves the environment's backups out of the node's old repository (issue 19: one password opened
 * every team's snapshots there) into its own, in the backup's container (which mounts both), and
 * points their rows at the copies. Once no backup of the node is left in the old repository, it is
 * pruned and removed, and its password forgotten.
 */
export async function moveLegacySnapshots(
  step: StepContext,
  command: { operation: StepContext['operation']; step: string; nodeId: string; timeoutSeconds: number },
  container: string,
  key: RepositoryKey,
  legacy: RepositoryKey,
  environment: Pick<Environment, 'id'>,
): Promise<number> {
  const { deps } = step;
  const run = await resticRun("moving earlier backups into the environment's own repository", deps.config.backupStorage, () =>
    runAgentCommand(deps, {
      ...command,
      part: 'move',
      kind: 'container.exec',
      timeoutSeconds: MOVE_TIMEOUT_SECONDS,
      payload: { name: container, cmd: ['bash', '-c', MOVE_SCRIPT], env: { ...resticEnv(key, legacy), ENVIRONMENT_ID: String(environment.id) } },
    }),
  );
  const snapshots = JSON.parse(run.stdout.trim().split('\n').at(-1) || '[]') as Array<{ id: string; tags?: string[] }> | null;
  let moved = 0;
  for (const snapshot of snapshots ?? []) {
    const backupId = snapshot.tags?.find((tag) => tag.startsWith('backup-'))?.slice('backup-'.length);
    if (!backupId) continue;
    moved += await Backup.query(deps.db)
      .patch({ snapshot_id: snapshot.id, repository: 'environment' })
      .where({ id: backupId, environment_id: environment.id, repository: 'node' });
  }
  // what the old repository still held of this environment and no row names (expired, deleted) went with the forget
  await Backup.query(deps.db)
    .patch({ repository: 'environment' })
    .where({ environment_id: environment.id, repository: 'node' })
    .whereNot('status', 'succeeded');
  const left = await legacySnapshotsLeft(step, legacy.nodeId);
  if (left === 0) {
    if (legacy.storage.kind === 's3') {
      await resticRun("pruning the node's emptied repository", deps.config.backupStorage, () =>
        runAgentCommand(deps, {
          ...command,
          part: 'prune-legacy',
          kind: 'container.exec',
          timeoutSeconds: MOVE_TIMEOUT_SECONDS,
          payload: { name: container, cmd: ['bash', '-c', PRUNE_LEGACY_SCRIPT], env: resticEnv(key, legacy) },
        }),
      );
    } else {
      await runAgentCommand(deps, { ...command, part: 'remove-legacy', kind: 'directory.remove', payload: { path: repositoryDir(legacy.location) } });
    }
    await BackupRepository.query(deps.db).deleteById(legacy.nodeId);
    await Backup.query(deps.db).patch({ repository: 'environment' }).where({ node_id: legacy.nodeId, repository: 'node' });
  }
  await step.log(
    `${moved} earlier backup${moved === 1 ? '' : 's'} moved from the node's shared repository into this environment's own${left === 0 ? '; the shared repository is empty and removed' : ''}`,
  );
  return moved;
}
