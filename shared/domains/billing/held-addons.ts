import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';
import type { AddonRow, SubscriptionAddonRow } from './rows.ts';

/** An add-on a subscription holds: the catalogue row with the subscription's quantities. */
export type HeldAddon = AddonRow & Pick<SubscriptionAddonRow, 'quantity' | 'pending_quantity'>;

/**
 * The add-ons of one subscription, or of a team's (one subscription per team), in the order they
 * were first bought, so invoice lines and answers keep a stable order.
 */
export async function heldAddons(db: Db | Knex.Transaction, of: { subscriptionId: number } | { teamId: number }): Promise<HeldAddon[]> {
  const query = db('subscription_addons as sa').join('addons as a', 'a.id', 'sa.addon_id').select('a.*', 'sa.quantity', 'sa.pending_quantity').orderBy('sa.id');
  if ('subscriptionId' in of) query.where('sa.subscription_id', of.subscriptionId);
  else query.join('subscriptions as s', 's.id', 'sa.subscription_id').where('s.team_id', of.teamId);
  return (await query) as HeldAddon[];
}

/** The add-ons as the renewal leaves them: pending decreases applied, those going to 0 gone. */
export function addonsAtRenewal(addons: readonly HeldAddon[]): HeldAddon[] {
  return addons
    .map((addon) => (addon.pending_quantity === null ? addon : { ...addon, quantity: addon.pending_quantity, pending_quantity: null }))
    .filter((addon) => addon.quantity > 0);
}
