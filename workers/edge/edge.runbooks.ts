import type { Runbook } from '../operations/runbook.ts';
import { routeEdge, verifyFrontPage } from '../environments/environment-steps.ts';
import { urlSchemeStep } from './url-scheme.ts';

/** `environment.edge`: the environment's HTTPS and password settings applied on its node and in WordPress. */
export const environmentEdgeRunbook: Runbook<'environment.edge'> = {
  steps: { urls: urlSchemeStep('urls'), route: routeEdge, verify: verifyFrontPage },
  result: (results) => ({ ...(results.route as Record<string, unknown>), urls: results.urls }),
};
