import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';
import { NotFound } from '../../errors.ts';
import { BillingConflict } from './billing-conflict.ts';
import { emitInvoiceEvent, emitSubscriptionEvent } from './billing-events.ts';
import { grantPlanEntitlements, withdrawPlanEntitlements } from './entitlements-sync.ts';
import { createDraftInvoice, finalizeInvoice, type InvoiceWithLines } from './invoices.ts';
import { addInterval } from './money.ts';
import { choosablePlan, findPlan } from './plans.ts';
import { DEFAULT_PROVIDER } from './providers/providers.ts';
import { addonPeriodItems, dropAddons } from './subscription-addons.ts';
import {
  ENDED_STATUSES,
  ENTITLED_STATUSES,
  type BillingSettings,
  type EndedReason,
  type InvoiceRow,
  type PlanRow,
  type SubscriptionRow,
  type SubscriptionStatus,
} from './rows.ts';
import { trialFor } from './trials.ts';

/** The states a paid invoice makes active again. */
const SETTLED_BY_PAYMENT: readonly SubscriptionStatus[] = ['incomplete', 'past_due', 'unpaid', 'paused'];

export async function findSubscription(db: Db | Knex.Transaction, teamId: number): Promise<SubscriptionRow> {
  const subscription = await db<SubscriptionRow>('subscriptions').where({ team_id: teamId }).first();
  if (!subscription) throw new NotFound('Your team has no subscription; choose a plan with POST /v1/billing/subscription');
  return subscription as SubscriptionRow;
}

/** The invoice of one period of a plan: the plan's price, then one line per add-on the subscription holds (quantity × unit price). */
export async function openPeriodInvoice(
  trx: Knex.Transaction,
  subscription: SubscriptionRow,
  plan: PlanRow,
  settings: BillingSettings,
  now: Date,
): Promise<InvoiceWithLines> {
  const period = `${subscription.current_period_start.toISOString().slice(0, 10)} to ${subscription.current_period_end.toISOString().slice(0, 10)}`;
  const addonItems = await addonPeriodItems(trx, subscription.id, period);
  const draft = await createDraftInvoice(
    trx,
    {
      teamId: subscription.team_id,
      subscriptionId: subscription.id,
      currency: plan.currency,
      provider: subscription.provider,
      period: { start: subscription.current_period_start, end: subscription.current_period_end },
      items: [{ description: `${plan.name} plan, ${period}`, quantity: 1, unitAmountMinor: plan.price_minor }, ...addonItems],
    },
    settings,
  );
  const open = await finalizeInvoice(trx, draft.id, settings, now);
  return { ...open, lines: draft.lines };
}

/**
 * A team chooses a plan. Its first trial on a plan with `trial_days` (unless it asks `trial: false`)
 * starts `trialing`: the plan's entitlements at once, no invoice, the trial as its period, billed
 * from the trial's end (see sweepSubscriptions). Otherwise it starts `incomplete` with its
 * first period (Stripe's rule: from the subscription's creation) and its first invoice finalized;
 * it gives entitlements once that invoice is paid (see settleSubscriptionPayment). A team with a
 * live subscription gets 409 (plans are changed with changePlan). The team's row is locked first,
 * so two requests at once make one subscription.
 */
export async function subscribe(
  db: Db,
  teamId: number,
  planCode: string,
  settings: BillingSettings,
  now = new Date(),
  options: { trial?: boolean } = {},
): Promise<{ subscription: SubscriptionRow; invoice: InvoiceWithLines | null; plan: PlanRow }> {
  return db.transaction(async (trx) => {
    await trx('teams').where({ id: teamId }).forUpdate().first('id');
    const existing = await trx<SubscriptionRow>('subscriptions').where({ team_id: teamId }).first();
    if (existing && !ENDED_STATUSES.includes(existing.status)) {
      throw new BillingConflict(
        'subscription_exists',
        `Your team is subscribed already (status ${existing.status}); change plans with PATCH /v1/billing/subscription`,
      );
    }
    const plan = await choosablePlan(trx, planCode);
    const trial = trialFor(plan, existing as SubscriptionRow | undefined, options.trial !== false, now);
    const fields = {
      plan_id: plan.id,
      pending_plan_id: null,
      status: trial ? ('trialing' as const) : ('incomplete' as const),
      provider: settings.provider ?? DEFAULT_PROVIDER,
      provider_ref: null,
      current_period_start: now,
      current_period_end: trial?.trial_end ?? addInterval(now, plan.interval),
      billing_anchor: trial?.trial_end ?? now,
      // This subscription's own trial or none; `trial_used_at` is only ever set, so a reused row keeps it.
      trial_start: null,
      trial_end: null,
      ...trial,
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      ended_reason: null,
      updated_at: now,
    };
    const [subscription] = existing
      ? await trx<SubscriptionRow>('subscriptions').where({ id: existing.id }).update(fields).returning('*')
      : await trx<SubscriptionRow>('subscriptions')
          .insert({ team_id: teamId, ...fields, created_at: now })
          .returning('*');
    if (existing) await dropAddons(trx, existing.id);
    await emitSubscriptionEvent(trx, 'subscription.created', subscription as SubscriptionRow, plan);
    if (trial) {
      await grantPlanEntitlements(trx, teamId, plan);
      return { subscription: subscription as SubscriptionRow, invoice: null, plan };
    }
    const invoice = await openPeriodInvoice(trx, subscription as SubscriptionRow, plan, settings, now);
    return { subscription: subscription as SubscriptionRow, invoice, plan };
  });
}

/**
 * A paid invoice settles its subscription: incomplete, past_due, unpaid or paused (its resumed
 * period's invoice, see resumeSubscription) becomes active and the plan's entitlements are written,
 * in the paying transaction. A subscription that ended meanwhile stays ended (the payment is kept on
 * the invoice for the operator to refund or credit).
 */
export async function settleSubscriptionPayment(trx: Knex.Transaction, invoice: InvoiceRow, now: Date): Promise<SubscriptionRow | null> {
  if (invoice.subscription_id === null) return null;
  const subscription = await trx<SubscriptionRow>('subscriptions').where({ id: invoice.subscription_id }).forUpdate().first();
  if (!subscription) return null;
  if (!SETTLED_BY_PAYMENT.includes(subscription.status)) return subscription as SubscriptionRow;
  // a paused subscription is settled by its resumed period's invoice only (see resumeSubscription)
  const paused = subscription.status === 'paused';
  if (paused && invoice.period_start?.getTime() !== subscription.current_period_start.getTime()) return subscription as SubscriptionRow;
  // Still owing another open invoice (several overdue periods): stay as it is until the last is paid.
  // Uncollectible ones are written off: they do not hold the subscription back.
  const stillOpen = await trx('invoices').where({ subscription_id: subscription.id, status: 'open' }).whereNot({ id: invoice.id }).first('id');
  if (stillOpen) return subscription as SubscriptionRow;
  const plan = await findPlan(trx, subscription.plan_id);
  // Paid after its due date, a resumed period has partly run (and would be billed again by the sweep
  // if long over) while it gave nothing: it starts again at the payment, which becomes the anchor.
  const late = paused && invoice.due_at !== null && now > invoice.due_at;
  const restart = late ? { current_period_start: now, current_period_end: addInterval(now, plan.interval), billing_anchor: now } : {};
  const [active] = await trx<SubscriptionRow>('subscriptions')
    .where({ id: subscription.id })
    .update({ status: 'active', ...restart, updated_at: now })
    .returning('*');
  await grantPlanEntitlements(trx, subscription.team_id, plan);
  await emitSubscriptionEvent(trx, 'subscription.updated', active as SubscriptionRow, plan);
  return active as SubscriptionRow;
}

/**
 * `DELETE /v1/billing/subscription`. An `incomplete` subscription (never paid) or a `paused` one
 * ends at once and its open invoices are voided; an `unpaid` one ends at once; one that gives
 * entitlements (a trial too) keeps them until the period ends (`cancel_at_period_end`), when the
 * period sweep ends it.
 */
export async function cancelSubscription(db: Db, teamId: number, now = new Date()): Promise<{ subscription: SubscriptionRow; voided: InvoiceRow[] }> {
  return db.transaction(async (trx) => {
    const subscription = await trx<SubscriptionRow>('subscriptions').where({ team_id: teamId }).forUpdate().first();
    if (!subscription) throw new NotFound('Your team has no subscription');
    if (ENDED_STATUSES.includes(subscription.status)) throw new BillingConflict('subscription_ended', 'The subscription has ended already');
    // Never paid, or paused (its resumed period not paid): nothing is owed for them, so their invoices are voided.
    if (subscription.status === 'incomplete' || subscription.status === 'paused')
      return abandonSubscription(trx, subscription as SubscriptionRow, 'canceled', now);
    // Entitlements withdrawn already for want of payment: it ends now, what it owes stays owed.
    if (subscription.status === 'unpaid') return { subscription: await endSubscription(trx, subscription as SubscriptionRow, now, now), voided: [] };
    const [canceling] = await trx<SubscriptionRow>('subscriptions')
      .where({ id: subscription.id })
      .update({ cancel_at_period_end: true, canceled_at: subscription.canceled_at ?? now, updated_at: now })
      .returning('*');
    if (!subscription.cancel_at_period_end) await emitSubscriptionEvent(trx, 'subscription.updated', canceling as SubscriptionRow);
    return { subscription: canceling as SubscriptionRow, voided: [] };
  });
}

/**
 * Ends a subscription now and voids what it was still owed (open or written-off invoices): nothing
 * was delivered for them. The caller withdraws the voided invoices' payments once committed
 * (withdrawVoidedInvoices).
 */
export async function abandonSubscription(
  trx: Knex.Transaction,
  subscription: SubscriptionRow,
  reason: EndedReason,
  now: Date,
): Promise<{ subscription: SubscriptionRow; voided: InvoiceRow[] }> {
  const voided = (await trx<InvoiceRow>('invoices')
    .where({ subscription_id: subscription.id })
    .whereIn('status', ['open', 'uncollectible'])
    .update({ status: 'void', voided_at: now, updated_at: now })
    .returning('*')) as InvoiceRow[];
  for (const invoice of voided) await emitInvoiceEvent(trx, 'invoice.voided', invoice);
  return { subscription: await endSubscription(trx, subscription, now, now, 'canceled', reason), voided };
}

/**
 * canceled (or unpaid): the entitlements it gave are withdrawn in the same transaction, so site
 * creation answers 402 again. One that never gave any (incomplete) or gave them up already (unpaid,
 * paused) leaves the row alone: it may be an operator's, written directly. `reason` is kept on a
 * canceled one (`ended_reason`).
 */
export async function endSubscription(
  trx: Knex.Transaction,
  subscription: SubscriptionRow,
  endedAt: Date,
  now: Date,
  status: 'canceled' | 'unpaid' = 'canceled',
  reason: EndedReason = 'canceled',
): Promise<SubscriptionRow> {
  const [ended] = await trx<SubscriptionRow>('subscriptions')
    .where({ id: subscription.id })
    .update({
      status,
      ended_at: status === 'canceled' ? endedAt : null,
      ended_reason: status === 'canceled' ? reason : null,
      canceled_at: subscription.canceled_at ?? (status === 'canceled' ? now : null),
      updated_at: now,
    })
    .returning('*');
  if (ENTITLED_STATUSES.includes(subscription.status)) await withdrawPlanEntitlements(trx, subscription.team_id);
  await emitSubscriptionEvent(trx, status === 'canceled' ? 'subscription.canceled' : 'subscription.updated', ended as SubscriptionRow);
  return ended as SubscriptionRow;
}
