import { z } from 'zod';
import { operationKind } from '../operations/operation-kind.ts';
import { ENVIRONMENT_DEADLINE_SECONDS, environmentInput } from '../sites/sites.operations.ts';

/**
 * An environment's edge settings applied (workers/edge/): HTTPS forcing and HSTS, password
 * protection, the page cache. The settings are on the environment's row already; the operation
 * makes the node and WordPress agree with them, then empties the page cache (pages stored under
 * the old settings: http links, another password, other exclusions).
 */
export const environmentEdge = operationKind({
  kind: 'environment.edge',
  input: environmentInput.extend({ change: z.enum(['https', 'password_protection', 'page_cache']) }),
  steps: [
    { name: 'urls' }, // WordPress's URLs moved to https when forced and covered by a certificate (back to http otherwise); the redirect follows them
    { name: 'route' }, // the edge route rewritten (redirect, HSTS, basic auth); a hot reload
    { name: 'verify' }, // the front page answers 200 through the edge, over the scheme WordPress uses
    { name: 'purge_cache' }, // its cached pages removed at the edge
  ],
  deadlineSeconds: ENVIRONMENT_DEADLINE_SECONDS,
});

/** An environment's cached pages removed at the edge: all of them, or the paths named (`prefix*`: every page below it). */
export const environmentCachePurge = operationKind({
  kind: 'environment.cache_purge',
  input: environmentInput.extend({ paths: z.array(z.string()).optional() }),
  steps: [{ name: 'purge_cache' }],
  deadlineSeconds: ENVIRONMENT_DEADLINE_SECONDS,
});

export const edgeOperations = [environmentEdge, environmentCachePurge] as const;
