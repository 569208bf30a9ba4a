import type { Runbook } from '../operations/runbook.ts';
import { routeEdge, verifyFrontPage } from '../environments/environment-steps.ts';
import { purgeAtEdge, purgePageCache } from './purge-page-cache.ts';
import { urlSchemeStep } from './url-scheme.ts';

/** `environment.edge`: the environment's HTTPS, password and page cache settings applied on its node and in WordPress. */
export const environmentEdgeRunbook: Runbook<'environment.edge'> = {
  steps: {
    urls: urlSchemeStep('urls'),
    route: routeEdge,
    verify: verifyFrontPage,
    // a change of the cache itself empties it even when it was just turned off (else turning it on again could serve old pages)
    purge_cache: (step) => (step.input.change === 'page_cache' ? purgeAtEdge(step) : purgePageCache(step)),
  },
  result: (results) => ({ ...(results.route as Record<string, unknown>), urls: results.urls, purge: results.purge_cache }),
};

/** `environment.cache_purge` (POST …/cache/purge). */
export const environmentCachePurgeRunbook: Runbook<'environment.cache_purge'> = {
  steps: { purge_cache: purgePageCache },
};
