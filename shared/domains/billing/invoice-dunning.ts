import type { Db } from '../../db/knex.ts';
import type { DunningAttemptRow } from './dunning-attempts.ts';
import { nextAttemptAt } from './dunning-schedule.ts';
import { ENTITLED_STATUSES, type BillingSettings, type InvoiceRow } from './rows.ts';

export type InvoiceDunning = { attempts: DunningAttemptRow[]; nextAttemptAt: Date | null };

/**
 * An invoice's dunning so far, and when the sweep makes its next attempt: null once it is settled,
 * its subscription no longer dunned (unpaid, ended), or the schedule is used up.
 */
export async function invoiceDunning(
  db: Db,
  invoice: InvoiceRow,
  settings: Pick<BillingSettings, 'dunningScheduleDays'>,
  now = new Date(),
): Promise<InvoiceDunning> {
  const attempts = (await db('invoice_dunning_attempts').where({ invoice_id: invoice.id }).orderBy('attempt')) as DunningAttemptRow[];
  if (invoice.status !== 'open' || invoice.due_at === null || invoice.subscription_id === null) return { attempts, nextAttemptAt: null };
  const subscription = await db('subscriptions').where({ id: invoice.subscription_id }).first('status');
  if (!subscription || !ENTITLED_STATUSES.includes(subscription.status)) return { attempts, nextAttemptAt: null };
  const lastMade = attempts.at(-1)?.attempt ?? 0;
  return { attempts, nextAttemptAt: nextAttemptAt(invoice.due_at, settings.dunningScheduleDays ?? [], lastMade, now) };
}
