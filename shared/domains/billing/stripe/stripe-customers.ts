import type Stripe from 'stripe';
import type { Db } from '../../../db/knex.ts';

/**
 * The team's Stripe customer, made the first time one of its invoices is collected. The idempotency
 * key is the invoice's, so a retried collection makes no second customer; two invoices collected at
 * once may each make one, and the first stored wins (the other stays unused in Stripe).
 */
export async function ensureStripeCustomer(db: Db, stripe: Stripe, teamId: number, invoiceId: number): Promise<string> {
  const known = await db('stripe_customers').where({ team_id: teamId }).first('customer_id');
  if (known) return known.customer_id as string;
  const team = await db('teams').where({ id: teamId }).first('name');
  const customer = await stripe.customers.create(
    { name: (team?.name as string | undefined) ?? `Team ${teamId}`, metadata: { team_id: String(teamId) } },
    { idempotencyKey: `berth-invoice-${invoiceId}-customer` },
  );
  await db('stripe_customers').insert({ team_id: teamId, customer_id: customer.id }).onConflict('team_id').ignore();
  const stored = await db('stripe_customers').where({ team_id: teamId }).first('customer_id');
  return stored.customer_id as string;
}
