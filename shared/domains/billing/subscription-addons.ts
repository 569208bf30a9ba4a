import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';
import { NotFound, ValidationFailed } from '../../errors.ts';
import { addonQuantityChange } from './addon-limits.ts';
import { addonByCode } from './addons.ts';
import { BillingConflict } from './billing-conflict.ts';
import { emitSubscriptionEvent } from './billing-events.ts';
import { grantPlanEntitlements } from './entitlements-sync.ts';
import { heldAddons, type HeldAddon } from './held-addons.ts';
import type { InvoiceItem, InvoiceWithLines } from './invoices.ts';
import { findPlan } from './plans.ts';
import { openProrationInvoice } from './proration-invoice.ts';
import type { AddonRow, BillingSettings, PlanRow, SubscriptionAddonRow, SubscriptionRow } from './rows.ts';

export type AddonChangeResult = {
  subscription: SubscriptionRow;
  /** The add-on as held after the change; null when the team does not hold it. */
  addon: HeldAddon | null;
  effective: 'now' | 'period_end' | 'unchanged';
  /** The proration invoice of an increase, finalized (to be issued once committed). */
  invoice: InvoiceWithLines | null;
};

/**
 * `PUT /v1/billing/subscription/addons/{code} {quantity}`: the team holds `quantity` units from now
 * (an increase) or from the renewal (a decrease). An increase writes the entitlements and invoices
 * the added units for the rest of the period by the second, as a plan upgrade does: the old
 * quantity's unused seconds credited, the new quantity's charged, at the add-on's current price.
 */
export async function setAddonQuantity(
  db: Db,
  teamId: number,
  code: string,
  quantity: number,
  settings: BillingSettings,
  now = new Date(),
): Promise<AddonChangeResult> {
  return db.transaction(async (trx) => {
    const subscription = await lockChangeableSubscription(trx, teamId);
    const addon = await addonByCode(trx, code);
    const held = await trx<SubscriptionAddonRow>('subscription_addons').where({ subscription_id: subscription.id, addon_id: addon.id }).first();
    const change = addonQuantityChange(held?.quantity ?? 0, held?.pending_quantity ?? null, quantity);
    if (change.effective === 'now') {
      const plan = await findPlan(trx, subscription.plan_id);
      assertBuyable(addon, plan);
      await trx('subscription_addons')
        .insert({ subscription_id: subscription.id, addon_id: addon.id, quantity, pending_quantity: null, created_at: now, updated_at: now })
        .onConflict(['subscription_id', 'addon_id'])
        .merge({ quantity, pending_quantity: null, updated_at: now });
      await grantPlanEntitlements(trx, teamId, plan);
      await emitSubscriptionEvent(trx, 'subscription.updated', subscription, plan);
      const from = held?.quantity ?? 0;
      // A trial is free, its add-ons too: the first invoice at the trial's end bills them with the plan.
      const invoice =
        subscription.status === 'trialing'
          ? null
          : await openProrationInvoice(
              trx,
              subscription,
              {
                currency: addon.currency,
                from: from > 0 ? { label: `${from} × ${addon.name}`, priceMinor: from * addon.price_minor } : null,
                to: { label: `${quantity} × ${addon.name}`, priceMinor: quantity * addon.price_minor },
              },
              settings,
              now,
            );
      return { subscription, addon: await heldAddon(trx, subscription.id, addon.id), effective: change.effective, invoice };
    }
    // Not an increase, so the add-on is held (asking for 1 or more of one not held is an increase).
    if (change.changed) {
      await trx('subscription_addons').where({ id: held!.id }).update({ pending_quantity: change.pendingQuantity, updated_at: now });
      await emitSubscriptionEvent(trx, 'subscription.updated', subscription);
    }
    return { subscription, addon: await heldAddon(trx, subscription.id, addon.id), effective: change.effective, invoice: null };
  });
}

/**
 * `DELETE /v1/billing/subscription/addons/{code}`: the add-on goes at the renewal (pending quantity
 * 0); until then the team keeps what it paid for. An add-on the team does not hold is a 404.
 */
export async function removeAddon(db: Db, teamId: number, code: string, now = new Date()): Promise<AddonChangeResult> {
  return db.transaction(async (trx) => {
    const subscription = await lockChangeableSubscription(trx, teamId);
    const addon = await addonByCode(trx, code);
    const held = await trx<SubscriptionAddonRow>('subscription_addons').where({ subscription_id: subscription.id, addon_id: addon.id }).first();
    if (!held) throw new NotFound(`Your subscription has no add-on "${code}"`);
    if (held.pending_quantity !== 0) {
      await trx('subscription_addons').where({ id: held.id }).update({ pending_quantity: 0, updated_at: now });
      await emitSubscriptionEvent(trx, 'subscription.updated', subscription);
    }
    return { subscription, addon: await heldAddon(trx, subscription.id, addon.id), effective: 'period_end', invoice: null };
  });
}

/**
 * The renewal's part (the billing sweep, under the subscription's row lock, before it grants and
 * invoices the new period): pending decreases take effect, add-ons going to 0 are removed.
 */
export async function applyPendingAddonQuantities(trx: Knex.Transaction, subscriptionId: number): Promise<void> {
  await trx('subscription_addons').where({ subscription_id: subscriptionId, pending_quantity: 0 }).delete();
  await trx('subscription_addons')
    .where({ subscription_id: subscriptionId })
    .whereNotNull('pending_quantity')
    .update({ quantity: trx.ref('pending_quantity'), pending_quantity: null, updated_at: trx.fn.now() });
}

/** A subscription that starts afresh (the team subscribes again) does not inherit the add-ons of the one that ended. */
export async function dropAddons(trx: Knex.Transaction, subscriptionId: number): Promise<void> {
  await trx('subscription_addons').where({ subscription_id: subscriptionId }).delete();
}

/** The period invoice's add-on lines: each add-on's quantity at its current price. */
export async function addonPeriodItems(trx: Knex.Transaction, subscriptionId: number, period: string): Promise<InvoiceItem[]> {
  return (await heldAddons(trx, { subscriptionId })).map((addon) => ({
    description: `${addon.name}, ${period}`,
    quantity: addon.quantity,
    unitAmountMinor: addon.price_minor,
  }));
}

/** The same states as a plan change: an active (or trialing) subscription that does not end at period end. */
async function lockChangeableSubscription(trx: Knex.Transaction, teamId: number): Promise<SubscriptionRow> {
  const subscription = (await trx<SubscriptionRow>('subscriptions').where({ team_id: teamId }).forUpdate().first()) as SubscriptionRow | undefined;
  if (!subscription) throw new NotFound('Your team has no subscription; choose a plan with POST /v1/billing/subscription');
  if (subscription.status !== 'active' && subscription.status !== 'trialing') {
    throw new BillingConflict(
      'subscription_not_active',
      `A ${subscription.status} subscription cannot change add-ons; ${subscription.status === 'canceled' ? 'choose a plan with POST' : 'pay its open invoice first'}`,
    );
  }
  if (subscription.cancel_at_period_end)
    throw new BillingConflict('subscription_not_active', 'The subscription ends at the end of its period; it cannot change add-ons');
  return subscription;
}

/** Only add-ons on sale are bought, billed like the plan (they share its invoices). */
function assertBuyable(addon: AddonRow, plan: PlanRow): void {
  if (!addon.active) throw ValidationFailed.field('code', `the add-on "${addon.code}" is no longer offered`);
  if (addon.currency !== plan.currency || addon.interval !== plan.interval) {
    throw ValidationFailed.field(
      'code',
      `the add-on "${addon.code}" is billed in ${addon.currency} per ${addon.interval}; your plan in ${plan.currency} per ${plan.interval}`,
    );
  }
}

async function heldAddon(trx: Knex.Transaction, subscriptionId: number, addonId: number): Promise<HeldAddon | null> {
  return (await heldAddons(trx, { subscriptionId })).find((addon) => addon.id === addonId) ?? null;
}
