import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';
import type { Logger } from '../../logger.ts';
import { grantPlanEntitlements } from './entitlements-sync.ts';
import { periodEndAfter } from './billing-periods.ts';
import { expireIncompleteSubscriptions } from './expire-incomplete.ts';
import { withdrawVoidedInvoices } from './withdraw-voided.ts';
import { findPlan } from './plans.ts';
import { issueInvoice } from './issue-invoice.ts';
import { enqueue, type Queues } from '../../jobs/queues.ts';
import { dunOverdueInvoices, type DunningResult } from './dunning.ts';
import { ENTITLED_STATUSES, type BillingSettings, type InvoiceRow, type LifecycleSettings, type SubscriptionRow, type SweepScope } from './rows.ts';
import { endSubscription, openPeriodInvoice } from './subscriptions.ts';
import { applyPendingAddonQuantities } from './subscription-addons.ts';
import { emitSubscriptionEvent } from './billing-events.ts';
import { pauseAtTrialEnd } from './trials.ts';

const DAY_MS = 86_400_000;

/** `dunning`: what the dunning pass did. */
export type SweepResult = { ended: number; renewed: number; pastDue: number; unpaid: number; paused: number; expired: number; dunning?: DunningResult };

/**
 * The billing sweep (workers, every BILLING_SWEEP_INTERVAL_MS; idempotent, so running it twice or on
 * two workers at once is harmless: each subscription is re-read under its row lock):
 * - a never-paid `incomplete` subscription expires after BILLING_INCOMPLETE_EXPIRE_HOURS (see
 *   expireIncompleteSubscriptions);
 * - a period that is over ends the subscription if it was to cancel at period end, else starts the
 *   next period with its invoice (missed periods are caught up one by one), each ending at the
 *   billing anchor plus whole intervals (periodEndAfter);
 * - a trial that is over is such a period too: cancelled, it ends (`trial_canceled`); otherwise by
 *   BILLING_TRIAL_END_BEHAVIOR, `invoice` starts the first paid period at the trial's end with its
 *   invoice and makes it `active` (unpaid, the dunning below applies: Stripe's send_invoice), and
 *   `pause` pauses it without an invoice (pauseAtTrialEnd);
 * - an invoice past its due date makes its subscription `past_due` (entitlements kept), and still
 *   open BILLING_UNPAID_AFTER_DAYS later makes it `unpaid` (entitlements withdrawn, a final mail) until
 *   paid; in between, each overdue invoice is retried or reminded on BILLING_DUNNING_SCHEDULE_DAYS (dunning.ts).
 * Each subscription is handled in its own transaction; new invoices are mailed and collected after commit.
 */
export async function sweepSubscriptions(
  deps: { db: Db; queues: Queues },
  settings: BillingSettings & LifecycleSettings,
  logger: Pick<Logger, 'info'> & Partial<Pick<Logger, 'warn' | 'error'>>,
  now = new Date(),
  scope: SweepScope = {},
): Promise<SweepResult> {
  const { db } = deps;
  const result: SweepResult = { ended: 0, renewed: 0, pastDue: 0, unpaid: 0, paused: 0, expired: 0 };
  const inScope = (column: string) => (query: Knex.QueryBuilder) => {
    if (scope.teamIds) query.whereIn(column, scope.teamIds);
  };
  const expiry = await expireIncompleteSubscriptions(db, settings.incompleteExpireHours, now, scope);
  result.expired = expiry.expired;
  await withdrawVoidedInvoices({ db, logger }, settings, expiry.voided);
  const due = await db<SubscriptionRow>('subscriptions')
    .whereIn('status', [...ENTITLED_STATUSES])
    .where('current_period_end', '<=', now)
    .modify(inScope('team_id'))
    .pluck('id');
  for (const id of due) {
    const opened: InvoiceRow[] = [];
    await db.transaction(async (trx) => {
      const locked = (await trx<SubscriptionRow>('subscriptions').where({ id }).forUpdate().first()) as SubscriptionRow | undefined;
      if (!locked || !ENTITLED_STATUSES.includes(locked.status)) return;
      let subscription: SubscriptionRow = locked;
      if (subscription.current_period_end > now) return;
      if (subscription.cancel_at_period_end) {
        await endSubscription(
          trx,
          subscription,
          subscription.current_period_end,
          now,
          'canceled',
          subscription.status === 'trialing' ? 'trial_canceled' : 'canceled',
        );
        result.ended += 1;
        return;
      }
      if (subscription.status === 'trialing' && settings.trialEndBehavior === 'pause') {
        await pauseAtTrialEnd(trx, subscription, now);
        result.paused += 1;
        return;
      }
      // A downgrade chosen during the period takes effect now. The limits are written again at every
      // renewal, so an operator's change to the plan reaches its subscribers by their next period.
      const plan = await findPlan(trx, subscription.pending_plan_id ?? subscription.plan_id);
      await applyPendingAddonQuantities(trx, subscription.id); // add-on decreases too, before the grant and the invoice read them
      await grantPlanEntitlements(trx, subscription.team_id, plan);
      while (subscription.current_period_end <= now) {
        const start = subscription.current_period_end;
        // A trial's end is its first renewal: the first paid period starts at trial_end, and it is active.
        const [renewed] = (await trx<SubscriptionRow>('subscriptions')
          .where({ id })
          .update({
            ...(subscription.status === 'trialing' ? { status: 'active' as const } : {}),
            plan_id: plan.id,
            pending_plan_id: null,
            current_period_start: start,
            current_period_end: periodEndAfter(subscription.billing_anchor, plan.interval, start),
            updated_at: now,
          })
          .returning('*')) as SubscriptionRow[];
        subscription = renewed!;
        opened.push(await openPeriodInvoice(trx, subscription, plan, settings, now));
        result.renewed += 1;
      }
      await emitSubscriptionEvent(trx, 'subscription.updated', subscription, plan);
    });
    for (const invoice of opened) await issueInvoice(deps, invoice, settings);
  }

  // Dunning: the oldest open invoice of each subscription decides.
  const overdue = (await db('invoices as i')
    .join('subscriptions as s', 's.id', 'i.subscription_id')
    .where('i.status', 'open')
    .where('i.due_at', '<=', now)
    .whereIn('s.status', ['active', 'trialing', 'past_due'])
    .modify(inScope('s.team_id'))
    .groupBy('s.id')
    .select('s.id')) as Array<{ id: number }>;
  for (const { id } of overdue) {
    const withdrawn = await db.transaction(async (trx) => {
      const subscription = (await trx<SubscriptionRow>('subscriptions').where({ id }).forUpdate().first()) as SubscriptionRow | undefined;
      if (!subscription || !ENTITLED_STATUSES.includes(subscription.status)) return false;
      // read again under the lock: a payment (webhook, operator, another worker's dunning charge) may have committed meanwhile
      const oldest = await trx('invoices')
        .where({ subscription_id: id, status: 'open' })
        .where('due_at', '<=', now)
        .min<{ due_at: Date | null }>('due_at as due_at')
        .first();
      if (!oldest?.due_at) return false;
      if (oldest.due_at.getTime() + settings.unpaidAfterDays * DAY_MS <= now.getTime()) {
        await endSubscription(trx, subscription, now, now, 'unpaid');
        result.unpaid += 1;
        return true;
      } else if (subscription.status !== 'past_due') {
        const [pastDue] = await trx<SubscriptionRow>('subscriptions').where({ id }).update({ status: 'past_due', updated_at: now }).returning('*');
        await emitSubscriptionEvent(trx, 'subscription.updated', pastDue as SubscriptionRow);
        result.pastDue += 1;
      }
      return false;
    });
    // The transition happens once, under the row lock: so does its mail.
    if (withdrawn) await enqueue(deps.queues, 'mail.dunning-unpaid', { subscriptionId: id });
  }
  // After the transitions: a subscription that just became unpaid is dunned no more.
  result.dunning = await dunOverdueInvoices(deps, settings, logger, now, scope);
  const { dunning, ...counts } = result;
  if (Object.values(counts).some((count) => count > 0) || dunning.attempts > 0) logger.info(result, 'billing sweep');
  return result;
}
