import { Environment, type Operation } from '../../db/models.ts';
import { ValidationFailed } from '../../errors.ts';
import { exclusionProblems, purgePathProblems } from '../../wordpress/edge-cache.ts';
import type { OperationDeps } from '../operations/operations.ts';
import { environmentIds, lockEnvironmentForChange, startOn, type Actor } from '../sites/environments.ts';

export type PageCacheChange = { enabled?: boolean | undefined; exclusions?: string[] | undefined };

/**
 * Turns an environment's page cache on or off and/or sets its exclusions: the row changes at once
 * (what the API shows), then an `environment.edge` operation rewrites its edge file, checks the site
 * and purges what was cached under the old settings. 422 for exclusions the edge could not hold.
 */
export async function changePageCache(
  deps: OperationDeps,
  actor: Actor,
  siteId: number,
  kind: string,
  change: PageCacheChange,
): Promise<{ environment: Environment; operation: Operation }> {
  const problems = change.exclusions ? exclusionProblems(change.exclusions) : [];
  if (problems.length > 0) throw new ValidationFailed(problems.map((message) => ({ field: 'exclusions', message })));
  return deps.db.transaction(async (trx) => {
    const { environment } = await lockEnvironmentForChange(trx, actor.teamId, siteId, kind);
    const changed = await Environment.query(trx).patchAndFetchById(environment.id, {
      ...(change.enabled !== undefined ? { page_cache: change.enabled } : {}),
      ...(change.exclusions !== undefined ? { cache_exclusions: change.exclusions } : {}),
      updated_at: new Date(),
    });
    const operation = await startOn(trx, deps, actor, changed, 'environment.edge', { ...environmentIds(changed), change: 'page_cache' });
    return { environment: changed, operation };
  });
}

/** Removes an environment's cached pages (all, or `paths`; `prefix*` for every page below a prefix) in an `environment.cache_purge` operation. */
export async function purgePageCacheOf(
  deps: OperationDeps,
  actor: Actor,
  siteId: number,
  kind: string,
  paths: string[] | undefined,
): Promise<{ environment: Environment; operation: Operation }> {
  const problems = paths ? purgePathProblems(paths) : [];
  if (problems.length > 0) throw new ValidationFailed(problems.map((message) => ({ field: 'paths', message })));
  return deps.db.transaction(async (trx) => {
    const { environment } = await lockEnvironmentForChange(trx, actor.teamId, siteId, kind);
    const operation = await startOn(trx, deps, actor, environment, 'environment.cache_purge', {
      ...environmentIds(environment),
      ...(paths && paths.length > 0 ? { paths } : {}),
    });
    return { environment, operation };
  });
}
