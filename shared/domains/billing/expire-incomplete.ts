import type { Db } from '../../db/knex.ts';
import type { InvoiceRow, SubscriptionRow, SweepScope } from './rows.ts';
import { abandonSubscription } from './subscriptions.ts';

const HOUR_MS = 3_600_000;

/**
 * Stripe's `incomplete_expired`: a subscription whose first invoice is still unpaid
 * BILLING_INCOMPLETE_EXPIRE_HOURS after it was chosen (its first period's start) is canceled and its
 * invoice voided (`ended_reason: incomplete_expired`), so the team is free to choose again. A card
 * pays at once; a bank transfer (any provider but Stripe) takes days, so there the hours count from
 * the first invoice's due date: a transfer sent in time is never refused for a void invoice. Each in
 * its own transaction, re-read under its lock: a payment that got there first wins.
 */
export async function expireIncompleteSubscriptions(
  db: Db,
  expireHours: number,
  now: Date,
  scope: SweepScope,
): Promise<{ expired: number; voided: InvoiceRow[] }> {
  const cutoff = new Date(now.getTime() - expireHours * HOUR_MS);
  const stale = await db<SubscriptionRow>('subscriptions')
    .where({ status: 'incomplete' })
    .where('current_period_start', '<=', cutoff)
    .modify((query) => {
      if (scope.teamIds) query.whereIn('team_id', scope.teamIds);
    })
    .pluck('id');
  let expired = 0;
  const voided: InvoiceRow[] = [];
  for (const id of stale) {
    await db.transaction(async (trx) => {
      const subscription = (await trx<SubscriptionRow>('subscriptions').where({ id }).forUpdate().first()) as SubscriptionRow | undefined;
      if (!subscription || subscription.status !== 'incomplete' || subscription.current_period_start > cutoff) return;
      if (subscription.provider !== 'stripe') {
        const first = await trx('invoices').where({ subscription_id: id, status: 'open' }).min<{ due_at: Date | null }>('due_at as due_at').first();
        if (first?.due_at && first.due_at > cutoff) return;
      }
      voided.push(...(await abandonSubscription(trx, subscription, 'incomplete_expired', now)).voided);
      expired += 1;
    });
  }
  return { expired, voided };
}
