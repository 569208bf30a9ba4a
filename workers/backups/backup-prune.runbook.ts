import { EnvironmentBackupRepository } from '../../shared/db/models.ts';
import { nodeLayout } from '../../shared/domains/nodes/node-layout.ts';
import { PRUNE_SCRIPT } from '../../shared/domains/backups/restic.ts';
import type { OperationInput } from '../../shared/domains/operations/operation-kinds.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import { agentCommand, environmentAndNode, environmentOf } from '../environments/environment-context.ts';
import type { Runbook, StepContext } from '../operations/runbook.ts';
import { repositoryKey } from './backup-context.ts';
import { runRepositoryScript } from './repository-script.ts';

/** Reading the whole index and repacking a large repository takes time; the operation's deadline (an hour) bounds it. */
const PRUNE_TIMEOUT_SECONDS = 50 * 60;

type PruneStep = StepContext<OperationInput<'backup.prune'>>;

const pruneContainerName = (nodeId: string, environmentId: number) => `${nodeLayout(nodeId).network}-prune-env-${environmentId}`;

/**
 * `restic prune` of the environment's repository, in a throwaway container that mounts the
 * repository only (no site files, no database); the repository is then marked pruned. Nothing to do
 * when a prune since the sweep found it has done the work.
 */
async function pruneRepository(step: PruneStep): Promise<unknown> {
  const { environment, node } = await environmentOf(step);
  const repository = await EnvironmentBackupRepository.query(step.deps.db).findById(environment.id);
  if (!repository?.forgotten_at) return { pruned: false };
  const { key } = await repositoryKey(step, environment);
  const command = agentCommand(step, 'prune', node.id);
  const name = pruneContainerName(node.id, environment.id);
  await runRepositoryScript(step, command, {
    name,
    node,
    environment,
    key,
    what: 'pruning the repository',
    script: PRUNE_SCRIPT,
    scriptTimeoutSeconds: PRUNE_TIMEOUT_SECONDS,
  });
  // the environment's backups wait for this operation (one serial key), so nothing was forgotten meanwhile
  await EnvironmentBackupRepository.query(step.deps.db).patch({ forgotten_at: null, pruned_at: new Date() }).where({ environment_id: environment.id });
  await step.log(`repository of environment ${environment.id} pruned (snapshots forgotten since ${repository.forgotten_at.toISOString()})`);
  return { pruned: true };
}

/** `backup.prune`, started by the prune sweep (shared/domains/backups/prune.ts). */
export const backupPruneRunbook: Runbook<'backup.prune'> = {
  steps: { prune: pruneRepository },
  onFailed: async (deps, operation, input) => {
    // the repository stays marked: the next sweep tries again; the container goes
    const { node } = await environmentAndNode(deps, input.environment_id).catch(() => ({ node: null }));
    if (!node) return;
    await runAgentCommand(deps, {
      operation,
      step: 'prune',
      part: 'cleanup-after-failure',
      nodeId: node.id,
      timeoutSeconds: 60,
      kind: 'container.remove',
      payload: { name: pruneContainerName(node.id, input.environment_id) },
    }).catch((error: Error) => deps.logger.warn({ operation_id: operation.id, err: error.message }, 'prune container not removed after a failure'));
  },
};
