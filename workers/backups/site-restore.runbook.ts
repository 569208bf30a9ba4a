import type { Operation } from '../../shared/db/models.ts';
import type { OperationInput } from '../../shared/domains/operations/operation-kinds.ts';
import { purgePageCache } from '../edge/purge-page-cache.ts';
import type { Runbook, StepContext } from '../operations/runbook.ts';
import type { WorkerDeps } from '../registry.ts';
import { environmentAndNode, markEnvironment } from '../environments/environment-context.ts';
import {
  createDatabase,
  ensureContainer,
  prepareFiles,
  prepareNodeServices,
  recordInventory,
  routeEdge,
  verifyFrontPage,
  writeConfig,
} from '../environments/environment-steps.ts';
import { removeLeftovers, restoreDatabase, restoreFiles, restoreLayout, rewriteRestoredUrls, swapIn, verifyRestore } from './backup-restore.runbook.ts';

/**
 * `site.restore`: a backup restored into a new site. The new environment is made as usual (its
 * database, user, directories and container), the backup restored beside it and checked, then swapped
 * in by the same steps as a restore onto an existing environment; the backed-up environment's address
 * is rewritten to the new site's. It goes live once its front page answers.
 */
type SiteRestoreInput = OperationInput<'site.restore'>;

async function removeRestoreLeftovers(deps: WorkerDeps, operation: Operation, input: SiteRestoreInput): Promise<void> {
  const { environment, node } = await environmentAndNode(deps, input.environment_id);
  await removeLeftovers(deps, operation, node.id, environment, restoreLayout(operation.id, node.id, environment));
}

async function cleanUp(step: StepContext<SiteRestoreInput>): Promise<unknown> {
  await removeRestoreLeftovers(step.deps, step.operation, step.input);
  return { cleaned: true };
}

async function verifyAndActivate(step: StepContext<SiteRestoreInput>): Promise<unknown> {
  const verified = await verifyFrontPage(step);
  await markEnvironment(step.deps, step.input.environment_id, 'active');
  return verified;
}

/** The new site is marked failed (the caller deletes it, or restores again); what the restore left beside it goes. */
async function siteRestoreFailed(deps: WorkerDeps, operation: Operation, input: SiteRestoreInput): Promise<void> {
  await markEnvironment(deps, input.environment_id, 'failed');
  try {
    await removeRestoreLeftovers(deps, operation, input);
  } catch (error) {
    deps.logger.warn(
      { operation_id: operation.id, err: (error as Error).message },
      'a failed restore into a new site left its scratch copy (removed with the site)',
    );
  }
}

export const siteRestoreRunbook: Runbook<'site.restore'> = {
  steps: {
    node_services: prepareNodeServices,
    database: createDatabase,
    files: prepareFiles,
    restore_files: restoreFiles,
    restore_database: restoreDatabase,
    verify_restore: verifyRestore,
    container: ensureContainer,
    swap: swapIn,
    configure: writeConfig,
    rewrite_urls: rewriteRestoredUrls,
    route: routeEdge,
    inventory: recordInventory,
    verify: verifyAndActivate,
    purge_cache: purgePageCache,
    cleanup: cleanUp,
  },
  result: (results) => ({ ...(results.verify as Record<string, unknown>), restored: true, wordpress: results.inventory }),
  onFailed: siteRestoreFailed,
};
