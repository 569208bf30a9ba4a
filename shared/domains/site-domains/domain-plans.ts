import type { StepPlan } from '../operations/operations.ts';

/** The edge's route of an environment rewritten with its verified domains, then checked through the edge. */
export const ENVIRONMENT_DOMAINS_KIND = 'environment.domains';

export const ENVIRONMENT_DOMAINS_STEPS: readonly StepPlan[] = [
  { name: 'primary' }, // a new primary host recorded (skipped when it does not change)
  { name: 'route' }, // the primary and default addresses served, every other verified domain redirected to the primary; a hot reload
  { name: 'configure' }, // wp-config.php's WP_HOME / WP_SITEURL at the new primary (skipped when it does not change)
  { name: 'rewrite_urls' }, // //old-primary → //new-primary in the database, serialized data kept valid (skipped likewise)
  { name: 'verify_domains' }, // the primary answers with the site, every other domain sends the visitor there
];

/** An `environment.domains` operation's input: the primary host it moves from and to, when it does. */
export type EnvironmentDomainsInput = { site_id: number; environment_id: number; reason: string; primary_from?: string; primary_to?: string };

/** The TXT record that proves control of `name`: at `_berth-verify.<name>`, `berth-verify=<token>`. */
export function verificationRecord(name: string, token: string): { name: string; type: 'TXT'; value: string } {
  return { name: `_berth-verify.${name}`, type: 'TXT', value: `berth-verify=${token}` };
}
