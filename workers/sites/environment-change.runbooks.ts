import type { Operation } from '../../shared/db/models.ts';
import { environmentLayout } from '../../shared/domains/nodes/node-layout.ts';
import type { OperationInput } from '../../shared/domains/operations/operation-kinds.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import { applyRetention, backupFailed, openRepository, takeSnapshot } from '../backups/backup-create.runbook.ts';
import type { BackupStep } from '../backups/backup-context.ts';
import { copyDatabase, copyFiles, rewriteUrls } from '../environments/copy-steps.ts';
import { agentCommand, environmentOf, type EnvironmentStep } from '../environments/environment-context.ts';
import { ensureContainer, recordInventory, verifyFrontPage } from '../environments/environment-steps.ts';
import { purgePageCache } from '../edge/purge-page-cache.ts';
import type { Runbook, StepFn } from '../operations/runbook.ts';
import type { WorkerDeps } from '../registry.ts';

/** The environment's container restarted (php-fpm's workers and opcache start afresh). */
async function restartContainer(step: EnvironmentStep): Promise<unknown> {
  const { environment, node } = await environmentOf(step);
  const restarted = await runAgentCommand(step.deps, {
    ...agentCommand(step, 'restart', node.id),
    kind: 'container.restart',
    payload: { name: environmentLayout(environment).container },
  });
  await step.log(`container ${environmentLayout(environment).container} restarted`);
  return restarted;
}

type PushInput = OperationInput<'environment.push'>;

/** A push's own backup of its target (production only: the domain started it with `input.backup_id`); skipped without one. */
function ifBackedUp(run: (step: BackupStep) => Promise<unknown>): StepFn<PushInput> {
  return async (step) => {
    const backupId = step.input.backup_id;
    return backupId ? run({ ...step, input: { ...step.input, backup_id: backupId } }) : { skipped: true };
  };
}

const result = (results: Readonly<Record<string, unknown>>) => ({
  ...(results.verify as Record<string, unknown>),
  ...(results.inventory ? { wordpress: results.inventory } : {}),
});

/** `environment.push`: the source's files and/or database onto the target, its URLs rewritten. */
export const environmentPushRunbook: Runbook<'environment.push'> = {
  steps: {
    safety_repository: ifBackedUp(openRepository),
    safety_snapshot: ifBackedUp(takeSnapshot),
    copy_files: copyFiles,
    copy_database: copyDatabase,
    rewrite_urls: rewriteUrls,
    inventory: recordInventory,
    verify: verifyFrontPage,
    purge_cache: purgePageCache,
    safety_retention: ifBackedUp(applyRetention),
  },
  result,
  onFailed: (deps: WorkerDeps, operation: Operation, input: PushInput) => backupFailed(deps, operation, input),
};

/** `environment.php_change`: the container recreated from the new version's image. */
export const environmentPhpRunbook: Runbook<'environment.php_change'> = {
  steps: { container: ensureContainer, inventory: recordInventory, verify: verifyFrontPage, purge_cache: purgePageCache },
  result,
};

/** `environment.restart`. */
export const environmentRestartRunbook: Runbook<'environment.restart'> = {
  steps: { restart: restartContainer, verify: verifyFrontPage },
  result,
};
