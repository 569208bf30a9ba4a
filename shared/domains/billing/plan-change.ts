import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';
import { NotFound, ValidationFailed } from '../../errors.ts';
import { BillingConflict } from './billing-conflict.ts';
import { emitSubscriptionEvent } from './billing-events.ts';
import { grantPlanEntitlements } from './entitlements-sync.ts';
import { heldAddons } from './held-addons.ts';
import type { InvoiceWithLines } from './invoices.ts';
import { choosablePlan, findPlan } from './plans.ts';
import { openProrationInvoice } from './proration-invoice.ts';
import type { BillingSettings, PlanRow, SubscriptionRow } from './rows.ts';

export type PlanChange = { subscription: SubscriptionRow; invoice: InvoiceWithLines | null; effective: 'now' | 'period_end' | 'unchanged' };

/** What a subscription that cannot change plans needs first, as the 409 tells it. */
const NEXT_STEP: Partial<Record<SubscriptionRow['status'], string>> = {
  canceled: 'choose a plan with POST',
  paused: 'resume it with POST /v1/billing/subscription/resume',
};

/**
 * `PATCH /v1/billing/subscription {plan}` on an active (or trialing) subscription, to a plan of the
 * same currency and interval:
 * - an upgrade (a price at least the current one) applies at once: the new plan's entitlements are
 *   written and an invoice charges the difference for the rest of the period, by the second (the
 *   old plan's unused seconds credited, the new plan's charged: see prorate), finalized now;
 * - a downgrade waits for the period's end (`pending_plan`): the team keeps what it paid for, and
 *   the renewal bills and entitles the new plan, so no credit has to be carried (Berth keeps no
 *   customer balance yet);
 * - choosing the current plan again drops a pending downgrade;
 * - during a trial any plan change applies at once without an invoice (nothing was paid to prorate),
 *   and the first invoice at the trial's end bills the plan chosen last.
 * The credit is computed at the current plan's price (an operator's price change since the period
 * was invoiced is not looked back at).
 */
export async function changePlan(db: Db, teamId: number, planCode: string, settings: BillingSettings, now = new Date()): Promise<PlanChange> {
  return db.transaction(async (trx) => {
    const subscription = (await trx<SubscriptionRow>('subscriptions').where({ team_id: teamId }).forUpdate().first()) as SubscriptionRow | undefined;
    if (!subscription) throw new NotFound('Your team has no subscription; choose a plan with POST /v1/billing/subscription');
    if (subscription.status !== 'active' && subscription.status !== 'trialing') {
      throw new BillingConflict(
        'subscription_not_active',
        `A ${subscription.status} subscription cannot change plans; ${NEXT_STEP[subscription.status] ?? 'pay its open invoice first'}`,
      );
    }
    if (subscription.cancel_at_period_end)
      throw new BillingConflict('subscription_not_active', 'The subscription ends at the end of its period; it cannot change plans');
    const current = await findPlan(trx, subscription.plan_id);
    if (planCode === current.code) {
      if (subscription.pending_plan_id === null) return { subscription, invoice: null, effective: 'unchanged' };
      const [kept] = await trx<SubscriptionRow>('subscriptions')
        .where({ id: subscription.id })
        .update({ pending_plan_id: null, updated_at: now })
        .returning('*');
      await emitSubscriptionEvent(trx, 'subscription.updated', kept as SubscriptionRow, current);
      return { subscription: kept as SubscriptionRow, invoice: null, effective: 'unchanged' };
    }
    const next = await choosablePlan(trx, planCode);
    if (subscription.status === 'trialing') return switchTrialPlan(trx, subscription, next, now);
    if (next.currency !== current.currency || next.interval !== current.interval) {
      throw ValidationFailed.field(
        'plan',
        `must be billed like the current plan (${current.currency} per ${current.interval}); to change that, cancel and choose again`,
      );
    }
    if (next.price_minor < current.price_minor) {
      const [scheduled] = await trx<SubscriptionRow>('subscriptions')
        .where({ id: subscription.id })
        .update({ pending_plan_id: next.id, updated_at: now })
        .returning('*');
      await emitSubscriptionEvent(trx, 'subscription.updated', scheduled as SubscriptionRow, current);
      return { subscription: scheduled as SubscriptionRow, invoice: null, effective: 'period_end' };
    }
    const [upgraded] = await trx<SubscriptionRow>('subscriptions')
      .where({ id: subscription.id })
      .update({ plan_id: next.id, pending_plan_id: null, updated_at: now })
      .returning('*');
    await grantPlanEntitlements(trx, teamId, next);
    await emitSubscriptionEvent(trx, 'subscription.updated', upgraded as SubscriptionRow, next);
    const invoice = await openProrationInvoice(
      trx,
      upgraded as SubscriptionRow,
      {
        currency: next.currency,
        from: { label: `${current.name} plan`, priceMinor: current.price_minor },
        to: { label: `${next.name} plan`, priceMinor: next.price_minor },
      },
      settings,
      now,
    );
    return { subscription: upgraded as SubscriptionRow, invoice, effective: 'now' };
  });
}

/** A trial's plan change: the new plan's entitlements at once; the trial (and so the anchor) keeps its end. */
async function switchTrialPlan(trx: Knex.Transaction, subscription: SubscriptionRow, next: PlanRow, now: Date): Promise<PlanChange> {
  // add-ons are billed like their plan: another currency or interval would bill them at the wrong price
  const mismatched = (await heldAddons(trx, { subscriptionId: subscription.id })).filter(
    (addon) => addon.currency !== next.currency || addon.interval !== next.interval,
  );
  if (mismatched.length > 0) {
    throw ValidationFailed.field(
      'plan',
      `is billed in ${next.currency} per ${next.interval}, unlike your add-ons (${mismatched.map((addon) => addon.code).join(', ')}); remove them first`,
    );
  }
  const [switched] = await trx<SubscriptionRow>('subscriptions')
    .where({ id: subscription.id })
    .update({ plan_id: next.id, pending_plan_id: null, updated_at: now })
    .returning('*');
  await grantPlanEntitlements(trx, subscription.team_id, next);
  await emitSubscriptionEvent(trx, 'subscription.updated', switched as SubscriptionRow, next);
  return { subscription: switched as SubscriptionRow, invoice: null, effective: 'now' };
}
