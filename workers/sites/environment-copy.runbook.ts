import { ENVIRONMENT_COPY_STEPS, ENVIRONMENT_CREATE_KIND, SITE_CLONE_KIND } from '../../shared/domains/sites/site-plans.ts';
import type { Runbook, RunbookStep, StepContext } from '../operations/runbook.ts';
import { copy_database, copy_files, rewrite_urls } from './copy-steps.ts';
import { markEnvironment } from './environment-context.ts';
import { configure, container, database, files, inventory, node_services, route, verify } from './environment-steps.ts';

async function verifyAndActivate(step: StepContext): Promise<unknown> {
  const verified = await verify(step);
  await markEnvironment(step.deps, step.operation, 'active');
  return verified;
}

const steps: Record<string, RunbookStep['run']> = {
  node_services, database, files, copy_files, container, configure, copy_database, rewrite_urls, route, inventory, verify: verifyAndActivate,
};

/** A new environment built as a copy of `input.source_environment_id`, live once its front page answers. */
function copyRunbook(kind: string): Runbook {
  return {
    kind,
    steps: ENVIRONMENT_COPY_STEPS.map((plan) => ({ ...plan, run: steps[plan.name]! })),
    result: (results) => ({ ...(results.verify as Record<string, unknown>), copied: { files: results.copy_files, database: results.copy_database, urls: results.rewrite_urls }, wordpress: results.inventory }),
    onFailed: (deps, operation) => markEnvironment(deps, operation, 'failed'),
  };
}

/** `environment.create` (POST /v1/sites/{id}/environments): staging or development from another environment of the site. */
export const environmentCreateRunbook = copyRunbook(ENVIRONMENT_CREATE_KIND);

/** `site.clone` (POST /v1/sites/{id}/clone): a new site's production from an environment of another site. */
export const siteCloneRunbook = copyRunbook(SITE_CLONE_KIND);
