import { copyDatabase, copyFiles, rewriteUrls } from '../environments/copy-steps.ts';
import { markEnvironment } from '../environments/environment-context.ts';
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
import { purgePageCache } from '../edge/purge-page-cache.ts';
import type { Runbook, StepContext } from '../operations/runbook.ts';

async function verifyAndActivate(step: StepContext<{ environment_id: number }>): Promise<unknown> {
  const verified = await verifyFrontPage(step);
  await markEnvironment(step.deps, step.input.environment_id, 'active');
  return verified;
}

/** A new environment built as a copy of `input.source_environment_id`, live once its front page answers. */
const copyRunbook: Runbook<'environment.create' | 'site.clone'> = {
  steps: {
    node_services: prepareNodeServices,
    database: createDatabase,
    files: prepareFiles,
    copy_files: copyFiles,
    container: ensureContainer,
    configure: writeConfig,
    copy_database: copyDatabase,
    rewrite_urls: rewriteUrls,
    route: routeEdge,
    inventory: recordInventory,
    verify: verifyAndActivate,
    purge_cache: purgePageCache,
  },
  result: (results) => ({
    ...(results.verify as Record<string, unknown>),
    copied: { files: results.copy_files, database: results.copy_database, urls: results.rewrite_urls },
    wordpress: results.inventory,
  }),
  onFailed: (deps, _operation, input) => markEnvironment(deps, input.environment_id, 'failed'),
};

/** `environment.create` (POST /v1/sites/{id}/environments): staging or development from another environment of the site. */
export const environmentCreateRunbook: Runbook<'environment.create'> = copyRunbook;

/** `site.clone` (POST /v1/sites/{id}/clone): a new site's production from an environment of another site. */
export const siteCloneRunbook: Runbook<'site.clone'> = copyRunbook;
