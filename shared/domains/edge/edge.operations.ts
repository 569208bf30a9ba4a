import { z } from 'zod';
import { operationKind } from '../operations/operation-kind.ts';
import { ENVIRONMENT_DEADLINE_SECONDS, environmentInput } from '../sites/sites.operations.ts';

/**
 * An environment's edge settings applied (workers/edge/): HTTPS forcing and HSTS, password
 * protection. The settings are on the environment's row already; the operation makes the node and
 * WordPress agree with them.
 */
export const environmentEdge = operationKind({
  kind: 'environment.edge',
  input: environmentInput.extend({ change: z.enum(['https', 'password_protection']) }),
  steps: [
    { name: 'urls' }, // WordPress's URLs moved to https when forced and covered by a certificate (back to http otherwise); the redirect follows them
    { name: 'route' }, // the edge route rewritten (redirect, HSTS, basic auth); a hot reload
    { name: 'verify' }, // the front page answers 200 through the edge, over the scheme WordPress uses
  ],
  deadlineSeconds: ENVIRONMENT_DEADLINE_SECONDS,
});

export const edgeOperations = [environmentEdge] as const;
