import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';
import { limitsWithAddons } from './addon-limits.ts';
import { addonsAtRenewal, heldAddons, type HeldAddon } from './held-addons.ts';
import { findPlan, planLimits, type PlanEntitlements } from './plans.ts';
import { ENTITLED_STATUSES, type SubscriptionRow } from './rows.ts';

export type SubscriptionLimits = { addons: HeldAddon[]; entitlements: PlanEntitlements | null; entitlementsAtRenewal: PlanEntitlements | null };

/**
 * What a subscription entitles to, computed from its plan and add-ons (not read from
 * `team_entitlements`, which operators may also write): now (null in a state that gives none), and
 * from the renewal with a pending plan and pending add-on quantities applied (null when it will
 * not renew: ending at period end, or not in a state the sweep renews).
 */
export async function subscriptionLimits(db: Db | Knex.Transaction, subscription: SubscriptionRow): Promise<SubscriptionLimits> {
  const [plan, renewalPlan, addons] = await Promise.all([
    findPlan(db, subscription.plan_id),
    findPlan(db, subscription.pending_plan_id ?? subscription.plan_id),
    heldAddons(db, { subscriptionId: subscription.id }),
  ]);
  const entitled = ENTITLED_STATUSES.includes(subscription.status);
  return {
    addons,
    entitlements: entitled ? limitsWithAddons(planLimits(plan), addons) : null,
    entitlementsAtRenewal: entitled && !subscription.cancel_at_period_end ? limitsWithAddons(planLimits(renewalPlan), addonsAtRenewal(addons)) : null,
  };
}
