import type { Db } from '../../db/knex.ts';
import { NotFound } from '../../errors.ts';
import { BillingConflict } from './billing-conflict.ts';
import { emitSubscriptionEvent } from './billing-events.ts';
import { withLines, type InvoiceWithLines } from './invoices.ts';
import { addInterval } from './money.ts';
import { findPlan } from './plans.ts';
import type { BillingSettings, InvoiceRow, PlanRow, SubscriptionRow } from './rows.ts';
import { applyPendingAddonQuantities } from './subscription-addons.ts';
import { openPeriodInvoice } from './subscriptions.ts';

export type Resumption = { subscription: SubscriptionRow; invoice: InvoiceWithLines; plan: PlanRow; issued: boolean };

/**
 * `POST /v1/billing/subscription/resume`: a paused subscription starts a period now, which becomes
 * its anchor (as Stripe resumes with `billing_cycle_anchor: now`), and that period's invoice is
 * finalized (`issued`: the caller mails and collects it after the commit). It stays `paused` until
 * the invoice is paid (settleSubscriptionPayment makes it active with its entitlements). Asked again
 * while that invoice is open, it answers the same invoice and makes nothing new.
 */
export async function resumeSubscription(db: Db, teamId: number, settings: BillingSettings, now = new Date()): Promise<Resumption> {
  return db.transaction(async (trx) => {
    const subscription = (await trx<SubscriptionRow>('subscriptions').where({ team_id: teamId }).forUpdate().first()) as SubscriptionRow | undefined;
    if (!subscription) throw new NotFound('Your team has no subscription; choose a plan with POST /v1/billing/subscription');
    if (subscription.status === 'canceled')
      throw new BillingConflict('subscription_ended', 'The subscription has ended; choose a plan with POST /v1/billing/subscription');
    if (subscription.status !== 'paused')
      throw new BillingConflict('subscription_not_paused', `Only a paused subscription is resumed; this one is ${subscription.status}`);
    // only the resumed period's own invoice is the one waiting (its period starts where the subscription's does)
    const waiting = (await trx<InvoiceRow>('invoices')
      .where({ subscription_id: subscription.id, status: 'open', period_start: subscription.current_period_start })
      .orderBy('id', 'desc')
      .first()) as InvoiceRow | undefined;
    if (waiting) return { subscription, invoice: await withLines(trx, waiting), plan: await findPlan(trx, subscription.plan_id), issued: false };

    const plan = await findPlan(trx, subscription.pending_plan_id ?? subscription.plan_id);
    await applyPendingAddonQuantities(trx, subscription.id); // add-ons dropped during the trial are not billed again
    const [resumed] = (await trx<SubscriptionRow>('subscriptions')
      .where({ id: subscription.id })
      .update({
        plan_id: plan.id,
        pending_plan_id: null,
        current_period_start: now,
        current_period_end: addInterval(now, plan.interval),
        billing_anchor: now,
        updated_at: now,
      })
      .returning('*')) as SubscriptionRow[];
    await emitSubscriptionEvent(trx, 'subscription.updated', resumed!, plan);
    const invoice = await openPeriodInvoice(trx, resumed!, plan, settings, now);
    return { subscription: resumed!, invoice, plan, issued: true };
  });
}
