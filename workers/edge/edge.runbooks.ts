import { routeEdge, verifyFrontPage } from '../environments/environment-steps.ts';
import type { Runbook } from '../operations/runbook.ts';
import { purgeAtEdge, purgePageCache } from './purge-page-cache.ts';

/** `environment.edge`: the environment's edge settings (already in its row) served, checked, and its old cached pages gone. */
export const environmentEdgeRunbook: Runbook<'environment.edge'> = {
  steps: { route: routeEdge, verify: verifyFrontPage, purge_cache: purgeAtEdge },
  result: (results) => ({ ...(results.route as Record<string, unknown>), verify: results.verify, purge: results.purge_cache }),
};

/** `environment.cache_purge` (POST …/cache/purge). */
export const environmentCachePurgeRunbook: Runbook<'environment.cache_purge'> = {
  steps: { purge_cache: purgePageCache },
};
