import type { Knex } from 'knex';
import type { PlanRow } from './rows.ts';
import { limitsWithAddons } from './addon-limits.ts';
import { heldAddons } from './held-addons.ts';
import { planLimits } from './plans.ts';

/**
 * Entitlements follow the subscription: the team's row in `team_entitlements` (what site creation,
 * environment limits and backup retention read) is written from the plan, plus the add-ons the
 * team's subscription holds (their current quantities), when a subscription starts giving
 * entitlements or changes, in the same transaction, and removed when it stops, so site creation
 * answers 402 again. Operators may still write the row directly for teams without a subscription.
 */
export async function grantPlanEntitlements(trx: Knex.Transaction, teamId: number, plan: PlanRow): Promise<void> {
  const limits = { plan: plan.code, ...limitsWithAddons(planLimits(plan), await heldAddons(trx, { teamId })) };
  await trx('team_entitlements')
    .insert({ team_id: teamId, ...limits })
    .onConflict('team_id')
    .merge({ ...limits, updated_at: trx.fn.now() });
}

/** Nothing the team has is removed: its sites keep running, it cannot make new ones (402). */
export async function withdrawPlanEntitlements(trx: Knex.Transaction, teamId: number): Promise<void> {
  await trx('team_entitlements').where({ team_id: teamId }).delete();
}
