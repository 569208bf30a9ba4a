import { z } from 'zod';
import { operationKind } from '../operations/operation-kind.ts';
import { ENVIRONMENT_DEADLINE_SECONDS, environmentInput } from '../sites/sites.operations.ts';

/**
 * The edge's route of an environment rewritten with its verified domains, then checked through the
 * edge. `primary_from`/`primary_to`: the primary host it moves from and to, when it does.
 */
export const environmentDomains = operationKind({
  kind: 'environment.domains',
  input: environmentInput.extend({ reason: z.string(), primary_from: z.string().optional(), primary_to: z.string().optional() }),
  steps: [
    { name: 'primary' }, // a new primary host recorded (skipped when it does not change)
    { name: 'route' }, // the primary and default addresses served, every other verified domain redirected to the primary; a hot reload
    { name: 'configure' }, // wp-config.php's WP_HOME / WP_SITEURL at the new primary (skipped when it does not change)
    { name: 'rewrite_urls' }, // //old-primary → //new-primary in the database, serialized data kept valid (skipped likewise)
    { name: 'scheme' }, // https while the installed certificate covers the (new) primary and HTTPS is forced, else back to http
    { name: 'verify_domains' }, // the primary answers with the site, every other domain sends the visitor there
    { name: 'purge_cache' }, // pages cached with the old addresses in them are gone
  ],
  deadlineSeconds: ENVIRONMENT_DEADLINE_SECONDS,
});
export type EnvironmentDomainsInput = z.infer<typeof environmentDomains.input>;

export const siteDomainOperations = [environmentDomains] as const;
