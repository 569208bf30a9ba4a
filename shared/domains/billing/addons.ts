import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';
import { NotFound } from '../../errors.ts';
import { assertAddsSomething, type AddonIncrements } from './addon-limits.ts';
import { BillingConflict } from './billing-conflict.ts';
import type { AddonRow, BillingInterval } from './rows.ts';

export type NewAddon = AddonIncrements & { code: string; name: string; price_minor: number; currency: string; interval: BillingInterval; active: boolean };

/**
 * What an operator may change. The code, currency and interval stay: subscriptions hold the add-on
 * billed like their plan, and a renewal must be able to put it on the plan's invoice.
 */
export type AddonChange = Partial<Omit<NewAddon, 'code' | 'currency' | 'interval'>>;

/** The catalogue, monthly then yearly, cheapest first; teams see the active add-ons, operators all. */
export async function listAddons(db: Db, options: { includeInactive: boolean }): Promise<AddonRow[]> {
  const query = db<AddonRow>('addons').orderBy([
    { column: 'interval', order: 'asc' },
    { column: 'price_minor', order: 'asc' },
    { column: 'id', order: 'asc' },
  ]);
  if (!options.includeInactive) query.where({ active: true });
  return query;
}

export async function findAddon(db: Db | Knex.Transaction, id: number): Promise<AddonRow> {
  const addon = await db<AddonRow>('addons').where({ id }).first();
  if (!addon) throw new NotFound('Add-on not found');
  return addon;
}

export async function addonByCode(db: Db | Knex.Transaction, code: string): Promise<AddonRow> {
  const addon = await db<AddonRow>('addons').where({ code }).first();
  if (!addon) throw new NotFound(`No add-on "${code}"; GET /v1/billing/addons lists them`);
  return addon;
}

export async function createAddon(db: Db, input: NewAddon): Promise<AddonRow> {
  assertAddsSomething(input);
  const [addon] = await db<AddonRow>('addons').insert(input).onConflict('code').ignore().returning('*');
  if (!addon) throw new BillingConflict('addon_code_taken', `An add-on with the code "${input.code}" exists already`);
  return addon as AddonRow;
}

/**
 * Price changes apply to invoices made from now on; increments to entitlements granted from now on
 * (renewals, the next change of the subscription), as for plans. The row is locked so the check
 * that a unit still adds something sees the increments it is merged with.
 */
export async function updateAddon(db: Db, id: number, change: AddonChange): Promise<AddonRow> {
  return db.transaction(async (trx) => {
    const current = await trx<AddonRow>('addons').where({ id }).forUpdate().first();
    if (!current) throw new NotFound('Add-on not found');
    assertAddsSomething({ ...current, ...change });
    const [addon] = await trx<AddonRow>('addons')
      .where({ id })
      .update({ ...change, updated_at: trx.fn.now() as unknown as Date })
      .returning('*');
    return addon as AddonRow;
  });
}
