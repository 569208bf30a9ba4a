import { Backup, BackupRepository, type Environment, type Node } from '../../shared/db/models.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import type { StepContext } from '../operations/runbook.ts';
import { nodeLayout } from '../../shared/domains/nodes/node-layout.ts';
import { repositoryKey } from './backup-context.ts';
import { resticRun } from './backup-create.runbook.ts';
import { BACKUP_RUNTIME, REPOSITORY_OPEN, resticContainerPayload, resticEnv } from '../../shared/domains/backups/restic.ts';

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
 * A deleted environment's snapshots leave the node's repository with it (its backups' rows go with
 * its row): nothing of a deleted site stays in storage. Nothing to do where it never had a backup.
 */
export async function forgetEnvironmentSnapshots(step: StepContext, environment: Environment, node: Pick<Node, 'id'>, part: string): Promise<number> {
  const snapshots = await Backup.query(step.deps.db).where({ environment_id: environment.id, status: 'succeeded' }).whereNotNull('snapshot_id').resultSize();
  const repository = await BackupRepository.query(step.deps.db).findById(node.id);
  if (snapshots === 0 || !repository?.initialized_at) return 0;
  const { key } = await repositoryKey(step, node);
  const name = `${nodeLayout(node.id).network}-forget-env-${environment.id}`;
  const command = { operation: step.operation, step: 'backups', nodeId: node.id, timeoutSeconds: 20 * 60 };
  await runAgentCommand(step.deps, {
    ...command, part: `${part}-container`, kind: 'container.ensure',
    payload: resticContainerPayload(step.deps.config, node, { name, role: 'backup', environment, mounts: [], repository: 'read-write', capabilities: [], database: false }),
  });
  await resticRun('forgetting the environment\'s snapshots', step.deps.config.backupStorage, () => runAgentCommand(step.deps, {
    ...command, part: `${part}-forget`, kind: 'container.exec',
    payload: { name, cmd: ['bash', '-c', FORGET_ENVIRONMENT_SCRIPT], env: { ...resticEnv(key), ENVIRONMENT_ID: String(environment.id) } },
  }));
  await runAgentCommand(step.deps, { ...command, part: `${part}-cleanup`, kind: 'container.remove', payload: { name } });
  return snapshots;
}
