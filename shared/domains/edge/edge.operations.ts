import { z } from 'zod';
import { operationKind } from '../operations/operation-kind.ts';
import { ENVIRONMENT_DEADLINE_SECONDS, environmentInput } from '../sites/sites.operations.ts';

/**
 * The operations on an environment's edge settings (workers/edge/): the settings are in the
 * environment's row already when the operation starts; the operation makes the edge serve them.
 */

/**
 * What changed, for the record (the operation's input, shown by the API): the route step renders
 * from the row. Open to the edge's other settings, each added here by the domain that owns it.
 */
const edgeChanges = z.looseObject({
  page_cache: z.boolean().optional(),
  cache_exclusions: z.array(z.string()).optional(),
});

/** The environment's edge file rewritten with its settings, checked, and its page cache emptied (pages rendered under the old settings). */
export const environmentEdge = operationKind({
  kind: 'environment.edge',
  input: environmentInput.extend({ changes: edgeChanges }),
  steps: [
    { name: 'route' }, // the environment's edge file rewritten and a hot reload
    { name: 'verify' }, // the front page answers through the edge (a probe the cache never answers)
    { name: 'purge_cache' }, // its cached pages removed
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
