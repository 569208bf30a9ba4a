import type { Operation } from '../../shared/db/models.ts';
import { SITE_RESTORE_KIND, SITE_RESTORE_STEPS } from '../../shared/domains/backups/backup-plans.ts';
import type { Runbook, RunbookStep, StepContext } from '../operations/runbook.ts';
import type { WorkerDeps } from '../registry.ts';
import { environmentOf, markEnvironment } from '../sites/environment-context.ts';
import { configure, container, database, files, inventory, node_services, route, verify } from '../sites/environment-steps.ts';
import { removeLeftovers, restoreLayout, restore_database, restore_files, rewrite_urls, swap, verify_restore } from './backup-restore.runbook.ts';

/**
 * `site.restore`: a backup restored into a new site. The new environment is made as usual (its
 * database, user, directories and container), the backup restored beside it and checked, then swapped
 * in by the same steps as a restore onto an existing environment; the backed-up environment's address
 * is rewritten to the new site's. It goes live once its front page answers.
 */
async function leftovers(step: StepContext): Promise<void> {
  const { environment, node } = await environmentOf(step);
  await removeLeftovers(step.deps, step.operation, node.id, environment, restoreLayout(step, node.id, environment));
}

async function cleanup(step: StepContext): Promise<unknown> {
  await leftovers(step);
  return { cleaned: true };
}

async function verifyAndActivate(step: StepContext): Promise<unknown> {
  const verified = await verify(step);
  await markEnvironment(step.deps, step.operation, 'active');
  return verified;
}

/** The new site is marked failed (the caller deletes it, or restores again); what the restore left beside it goes. */
async function siteRestoreFailed(deps: WorkerDeps, operation: Operation): Promise<void> {
  await markEnvironment(deps, operation, 'failed');
  try {
    await leftovers({ operation, deps } as StepContext);
  } catch (error) {
    deps.logger.warn({ operation_id: operation.id, err: (error as Error).message }, 'a failed restore into a new site left its scratch copy (removed with the site)');
  }
}

const run: Record<string, RunbookStep['run']> = {
  node_services, database, files, restore_files, restore_database, verify_restore, container, swap, configure, rewrite_urls, route, inventory,
  verify: verifyAndActivate, cleanup,
};

export const siteRestoreRunbook: Runbook = {
  kind: SITE_RESTORE_KIND,
  steps: SITE_RESTORE_STEPS.map((plan) => ({ ...plan, run: run[plan.name]! })),
  result: (results) => ({ ...(results.verify as Record<string, unknown>), restored: true, wordpress: results.inventory }),
  onFailed: siteRestoreFailed,
};
