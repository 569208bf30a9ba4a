import { startRenewals } from '../../shared/domains/certificates/certificates.ts';
import type { WorkerDeps } from '../registry.ts';

/** The daily sweep: ACME certificates expiring within 30 days are issued anew (nothing to do without a CA). */
export async function sweepCertificateRenewals(deps: WorkerDeps): Promise<{ renewals: number }> {
  if (!deps.config.acme) return { renewals: 0 };
  const operations = await startRenewals(deps);
  if (operations.length > 0) deps.logger.info({ renewals: operations.length }, 'certificate renewals started');
  return { renewals: operations.length };
}
