import { Backup, EnvironmentBackupRepository, type Environment, type Node } from '../../shared/db/models.ts';
import { environmentRepositoryKey, legacyRepositoryKey } from '../../shared/domains/backups/repository-keys.ts';
import type { StepContext } from '../operations/runbook.ts';
import { nodeLayout } from '../../shared/domains/nodes/node-layout.ts';
import { repositoryKeysOf } from './backup-context.ts';
import { runRepositoryScript } from './repository-script.ts';
import { BACKUP_RUNTIME, REPOSITORY_OPEN } from '../../shared/domains/backups/restic.ts';

/** Every snapshot tagged with the environment (restic's forget needs ids or a keep policy: ids). */
const FORGET_ENVIRONMENT_SCRIPT = String.raw`
set -euo pipefail
${REPOSITORY_OPEN}
ids=$(restic snapshots --json --retry-lock ${BACKUP_RUNTIME.retryLock} --tag "env-$ENVIRONMENT_ID" | grep -o '"id":"[0-9a-f]\{64\}"' | cut -d'"' -f4 || true)
if [ -n "$ids" ]; then restic forget --retry-lock ${BACKUP_RUNTIME.retryLock} --prune $ids >&2; fi
echo "{\"forgotten\":$(printf '%s
' $ids | grep -c . || true)}"
`;

/**
 * A deleted environment's snapshots leave storage with it (its backups' rows go with its row):
 * those in its own repository, and any still in the node's old shared one. Nothing to do where it
 * never had a backup.
 */
export async function forgetEnvironmentSnapshots(step: StepContext, environment: Environment, node: Pick<Node, 'id'>, part: string): Promise<number> {
  const snapshots = await Backup.query(step.deps.db).where({ environment_id: environment.id, status: 'succeeded' }).whereNotNull('snapshot_id');
  if (snapshots.length === 0) return 0;
  const keys = repositoryKeysOf(step.deps);
  const own = await EnvironmentBackupRepository.query(step.deps.db).findById(environment.id);
  const repositories = [
    ...(own && (own.initialized_at || keys.storage.kind === 's3') ? [(await environmentRepositoryKey(keys, environment)).key] : []),
    ...(snapshots.some((backup) => backup.repository === 'node') ? [await legacyRepositoryKey(keys, node.id)].filter((key) => key !== null) : []),
  ];
  const command = { operation: step.operation, step: 'backups', nodeId: node.id, timeoutSeconds: 20 * 60 };
  for (const key of repositories) {
    const where = key.location.kind === 'node' ? '-legacy' : '';
    const name = `${nodeLayout(node.id).network}-forget-env-${environment.id}${where}`;
    await runRepositoryScript(step, command, {
      name,
      node,
      environment,
      key,
      what: "forgetting the environment's snapshots",
      script: FORGET_ENVIRONMENT_SCRIPT,
      env: { ENVIRONMENT_ID: String(environment.id) },
      part: `${part}${where}`,
      scriptPart: 'forget',
    });
  }
  return snapshots.length;
}
