import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';

/** A team's billing profile as stored (billing_profiles). */
export type BillingProfileRow = {
  team_id: number;
  legal_name: string;
  invoice_email: string | null;
  address_line1: string;
  address_line2: string | null;
  postal_code: string;
  city: string;
  region: string | null;
  country: string;
  tax_id: string | null;
  created_at: Date;
  updated_at: Date;
};

export type BillingProfileInput = Omit<BillingProfileRow, 'team_id' | 'created_at' | 'updated_at'>;

/** Who an invoice is made out to: the bill-to block, kept on a finalized invoice (`invoices.customer`). */
export type BillingCustomer = Omit<BillingProfileInput, 'invoice_email'>;

export async function findBillingProfile(db: Db | Knex.Transaction, teamId: number): Promise<BillingProfileRow | null> {
  return ((await db<BillingProfileRow>('billing_profiles').where({ team_id: teamId }).first()) as BillingProfileRow | undefined) ?? null;
}

/** Replaces the team's profile with `input` (every field: one left out is cleared), creating it the first time. */
export async function putBillingProfile(db: Db, teamId: number, input: BillingProfileInput, now = new Date()): Promise<BillingProfileRow> {
  const [row] = await db<BillingProfileRow>('billing_profiles')
    .insert({ team_id: teamId, ...input, created_at: now, updated_at: now })
    .onConflict('team_id')
    .merge({ ...input, updated_at: now })
    .returning('*');
  return row as BillingProfileRow;
}

/** The bill-to block of a profile (its mail address is not printed on invoices). */
export function customerOf(profile: BillingProfileRow | null): BillingCustomer | null {
  if (!profile) return null;
  const { legal_name, address_line1, address_line2, postal_code, city, region, country, tax_id } = profile;
  return { legal_name, address_line1, address_line2, postal_code, city, region, country, tax_id };
}
