import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';
import { limitsWithAddons } from './addon-limits.ts';
import { addonsAtRenewal, heldAddons, type HeldAddon } from './held-addons.ts';
import { findPlan, planLimits, type PlanEntitlements } from './plans.ts';
import type { SubscriptionRow } from './rows.ts';

export type SubscriptionLimits = { addons: HeldAddon[]; entitlements: PlanEntitlements; entitlementsAtRenewal: PlanEntitlements };

/**
 * What a subscription entitles to, computed from its plan and add-ons (not read from
 * `team_entitlements`, which an ended or unpaid subscription no longer writes): now, and from the
 * renewal with a pending plan and pending add-on quantities applied.
 */
export async function subscriptionLimits(db: Db | Knex.Transaction, subscription: SubscriptionRow): Promise<SubscriptionLimits> {
  const [plan, renewalPlan, addons] = await Promise.all([
    findPlan(db, subscription.plan_id),
    findPlan(db, subscription.pending_plan_id ?? subscription.plan_id),
    heldAddons(db, { subscriptionId: subscription.id }),
  ]);
  return {
    addons,
    entitlements: limitsWithAddons(planLimits(plan), addons),
    entitlementsAtRenewal: limitsWithAddons(planLimits(renewalPlan), addonsAtRenewal(addons)),
  };
}
