import type { StepPlan } from '../operations/operations.ts';

/** The edge's route of an environment rewritten with its verified domains, then checked through the edge. */
export const ENVIRONMENT_DOMAINS_KIND = 'environment.domains';

export const ENVIRONMENT_DOMAINS_STEPS: readonly StepPlan[] = [
  { name: 'route' }, // the default address and every verified domain in the edge's server_name; a hot reload
  { name: 'verify_domains' }, // the edge answers for each of them with the site
];

/** The TXT record that proves control of `name`: at `_berth-verify.<name>`, `berth-verify=<token>`. */
export function verificationRecord(name: string, token: string): { name: string; type: 'TXT'; value: string } {
  return { name: `_berth-verify.${name}`, type: 'TXT', value: `berth-verify=${token}` };
}
