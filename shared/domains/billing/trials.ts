import type { Knex } from 'knex';
import { emitSubscriptionEvent } from './billing-events.ts';
import { withdrawPlanEntitlements } from './entitlements-sync.ts';
import type { PlanRow, SubscriptionRow } from './rows.ts';

const DAY_MS = 86_400_000;

export type Trial = { trial_start: Date; trial_end: Date; trial_used_at: Date };

/**
 * The trial a new subscription starts with, if any: the plan's `trial_days` from now, when the team
 * wants one and has never had one (`trial_used_at` stays on the team's one subscription row, so
 * cancelling and choosing again gives no second trial).
 */
export function trialFor(plan: PlanRow, previous: SubscriptionRow | undefined, wanted: boolean, now: Date): Trial | null {
  if (!wanted || plan.trial_days === 0 || previous?.trial_used_at) return null;
  return { trial_start: now, trial_end: new Date(now.getTime() + plan.trial_days * DAY_MS), trial_used_at: now };
}

/**
 * BILLING_TRIAL_END_BEHAVIOR=pause: the trial is over and nothing was paid, so the subscription is
 * `paused` (Stripe's trial end without a payment method): entitlements withdrawn (sites keep
 * running, new ones 402), no invoice, until the team resumes it (resumeSubscription) or cancels.
 */
export async function pauseAtTrialEnd(trx: Knex.Transaction, subscription: SubscriptionRow, now: Date): Promise<SubscriptionRow> {
  const [paused] = await trx<SubscriptionRow>('subscriptions').where({ id: subscription.id }).update({ status: 'paused', updated_at: now }).returning('*');
  await withdrawPlanEntitlements(trx, subscription.team_id);
  await emitSubscriptionEvent(trx, 'subscription.updated', paused as SubscriptionRow);
  return paused as SubscriptionRow;
}
