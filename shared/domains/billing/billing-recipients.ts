import type { Db } from '../../db/knex.ts';
import { findBillingProfile } from './billing-profiles.ts';

/** Who billing mail goes to: the team's active owners and members with the built-in billing role. */
export async function billingRecipients(db: Db, teamId: number): Promise<string[]> {
  const rows = (await db('memberships as m')
    .join('roles as r', 'r.id', 'm.role_id')
    .join('users as u', 'u.id', 'm.user_id')
    .where({ 'm.team_id': teamId, 'm.status': 'ACTIVE' })
    .whereNull('r.team_id')
    .whereIn('r.name', ['owner', 'billing'])
    .distinct('u.email')) as Array<{ email: string }>;
  return rows.map((row) => row.email);
}

/**
 * Who invoices and credit notes go to: the invoice email of the team's billing profile when it has
 * one (only there), else billingRecipients.
 */
export async function invoiceRecipients(db: Db, teamId: number): Promise<string[]> {
  const invoiceEmail = (await findBillingProfile(db, teamId))?.invoice_email;
  return invoiceEmail ? [invoiceEmail] : billingRecipients(db, teamId);
}
