import { z } from 'zod';
import { operationKind } from '../operations/operation-kind.ts';
import { ENVIRONMENT_DEADLINE_SECONDS, environmentInput } from '../sites/sites.operations.ts';

/** A certificate the team uploaded, installed on the environment's edge (workers/certificates/). */
export const certificateInstall = operationKind({
  kind: 'certificate.install',
  input: environmentInput.extend({ certificate_id: z.uuid() }),
  steps: [
    { name: 'node_services' }, // the edge made with the node's HTTPS port and certificate mounts (set by an operator since)
    { name: 'files' }, // the chain and the key on the node (the key forgotten from the stored command once written)
    { name: 'route' }, // the environment's edge route with HTTPS on 443; a hot reload
    { name: 'verify_tls' }, // the edge's HTTPS port presents this certificate for the site's address
    { name: 'scheme' }, // WordPress's URLs moved to https (HTTPS forced, the default), then the edge's redirect and HSTS
    { name: 'purge_cache' }, // pages cached with http:// links are gone
  ],
  deadlineSeconds: ENVIRONMENT_DEADLINE_SECONDS,
});

/** A certificate obtained from the platform's ACME CA, then installed like an uploaded one; `renewal` when the sweeper asked. */
export const certificateIssue = operationKind({
  kind: 'certificate.issue',
  input: environmentInput.extend({ renewal: z.boolean().optional() }),
  steps: [
    { name: 'node_services' },
    { name: 'account' }, // the platform's ACME account at the CA (made once, its key sealed)
    { name: 'obtain' }, // an order for the site's names, HTTP-01 answered by the node's edge, finalized: the certificate stored
    { name: 'files' },
    { name: 'route' },
    { name: 'verify_tls' },
    { name: 'scheme' },
    { name: 'purge_cache' },
  ],
  deadlineSeconds: ENVIRONMENT_DEADLINE_SECONDS,
});

export const certificateOperations = [certificateInstall, certificateIssue] as const;
