import { startRenewals } from '../../shared/domains/certificates/certificates.ts';
import { startSchemeCatchUps } from '../../shared/domains/edge/scheme-catch-up.ts';
import type { WorkerDeps } from '../registry.ts';

/**
 * The daily sweep: environments whose certificate should have moved them to https are moved (see
 * startSchemeCatchUps); ACME certificates expiring within 30 days are issued anew (nothing to do without a CA).
 */
export async function sweepCertificateRenewals(deps: WorkerDeps): Promise<{ renewals: number; scheme_catch_ups: number }> {
  const catchUps = await startSchemeCatchUps(deps);
  if (catchUps.length > 0) deps.logger.info({ environments: catchUps.length }, 'environments moved to https by the sweep');
  if (!deps.config.acme) return { renewals: 0, scheme_catch_ups: catchUps.length };
  const operations = await startRenewals(deps);
  if (operations.length > 0) deps.logger.info({ renewals: operations.length }, 'certificate renewals started');
  return { renewals: operations.length, scheme_catch_ups: catchUps.length };
}
