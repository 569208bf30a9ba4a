import type { z } from 'zod';
import type { Db } from '../../shared/db/knex.ts';
import { findPlan } from '../../shared/domains/billing/plans.ts';
import type { SubscriptionRow } from '../../shared/domains/billing/rows.ts';
import { subscriptionView, type subscriptionJson } from './billing.schemas.ts';

/** A subscription as the API shows it, with its plan and pending plan read. */
export async function subscriptionAnswer(db: Db, subscription: SubscriptionRow): Promise<z.infer<typeof subscriptionJson>> {
  const [plan, pending] = await Promise.all([
    findPlan(db, subscription.plan_id),
    subscription.pending_plan_id === null ? null : findPlan(db, subscription.pending_plan_id),
  ]);
  return subscriptionView(subscription, plan, pending);
}
