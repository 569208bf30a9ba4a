import {
  ENVIRONMENT_PHP_KIND, ENVIRONMENT_PHP_STEPS, ENVIRONMENT_PUSH_KIND, ENVIRONMENT_PUSH_STEPS, ENVIRONMENT_RESTART_KIND, ENVIRONMENT_RESTART_STEPS,
} from '../../shared/domains/sites/site-plans.ts';
import type { StepPlan } from '../../shared/domains/operations/operations.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import type { Runbook, RunbookStep, StepContext } from '../operations/runbook.ts';
import { backupFailed, repository, retention, snapshot } from '../backups/backup-create.runbook.ts';
import { copy_database, copy_files, rewrite_urls } from './copy-steps.ts';
import { agentCommand, environmentOf } from './environment-context.ts';
import { container, inventory, verify } from './environment-steps.ts';
import { environmentLayout } from '../../shared/domains/nodes/node-layout.ts';

/** The environment's container restarted (php-fpm's workers and opcache start afresh). */
async function restart(step: StepContext): Promise<unknown> {
  const { environment, node } = await environmentOf(step);
  const restarted = await runAgentCommand(step.deps, { ...agentCommand(step, 'restart', node.id), kind: 'container.restart', payload: { name: environmentLayout(environment).container } });
  await step.log(`container ${environmentLayout(environment).container} restarted`);
  return restarted;
}

/** A push's own backup of its target (production only: the domain planned it as `input.backup_id`); skipped without one. */
const ifBackedUp = (run: RunbookStep['run']): RunbookStep['run'] => async (step) => ((step.operation.input as { backup_id?: string }).backup_id ? run(step) : { skipped: true });

const steps: Record<string, RunbookStep['run']> = {
  copy_files, copy_database, rewrite_urls, container, restart, inventory, verify,
  safety_repository: ifBackedUp(repository), safety_snapshot: ifBackedUp(snapshot), safety_retention: ifBackedUp(retention),
};

function runbook(kind: string, plan: readonly StepPlan[], onFailed?: Runbook['onFailed']): Runbook {
  return {
    kind,
    steps: plan.map((step) => ({ ...step, run: steps[step.name]! })),
    result: (results) => ({ ...(results.verify as Record<string, unknown>), ...(results.inventory ? { wordpress: results.inventory } : {}) }),
    ...(onFailed ? { onFailed } : {}),
  };
}

/** `environment.push`: the source's files and/or database onto the target, its URLs rewritten. */
export const environmentPushRunbook = runbook(ENVIRONMENT_PUSH_KIND, ENVIRONMENT_PUSH_STEPS, async (deps, operation) => {
  if ((operation.input as { backup_id?: string }).backup_id) await backupFailed(deps, operation);
});
/** `environment.php_change`: the container recreated from the new version's image. */
export const environmentPhpRunbook = runbook(ENVIRONMENT_PHP_KIND, ENVIRONMENT_PHP_STEPS);
/** `environment.restart`. */
export const environmentRestartRunbook = runbook(ENVIRONMENT_RESTART_KIND, ENVIRONMENT_RESTART_STEPS);
