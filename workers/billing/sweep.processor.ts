import { sweepSubscriptions, type SweepResult } from '../../shared/domains/billing/sweep-subscriptions.ts';
import type { WorkerDeps } from '../registry.ts';

/** Ends, renews and duns subscriptions whose period or invoice is due (shared/domains/billing/sweep-subscriptions.ts). */
export async function sweepBilling(deps: WorkerDeps): Promise<SweepResult> {
  return sweepSubscriptions(deps, deps.config.billing, deps.logger);
}
