import type { Db } from '../../db/knex.ts';
import { enqueue, type Queues } from '../../jobs/queues.ts';
import type { Logger } from '../../logger.ts';
import { claimDunningAttempt, recordDunningOutcome, type DunningAttemptRow } from './dunning-attempts.ts';
import { dueAttempt } from './dunning-schedule.ts';
import type { RetryOutcome } from './providers/payment-provider.ts';
import { providerNamed } from './providers/providers.ts';
import { ENTITLED_STATUSES, type BillingSettings, type InvoiceRow } from './rows.ts';
import { withoutSecrets } from './stripe/stripe-retry.ts';

const DAY_MS = 86_400_000;

export type DunningResult = { attempts: number; paid: number; failed: number };

/**
 * The dunning pass of the billing sweep: every open invoice past its due date, of a subscription
 * that still has its plan (active, trialing, past_due), gets the attempt of BILLING_DUNNING_SCHEDULE_DAYS
 * that is due at `now` — at most one per sweep and invoice, the latest due (days the sweep missed are
 * not made up). An attempt is claimed first (dunning-attempts.ts), then the invoice's provider is
 * asked to retry (Stripe charges the saved card, manual only reminds), then the outcome is recorded,
 * and after that commit the attempt's mail is enqueued.
 */
export async function dunOverdueInvoices(
  deps: { db: Db; queues: Queues },
  settings: BillingSettings,
  logger: Pick<Logger, 'info'>,
  now: Date,
  scope: { teamIds?: readonly number[] } = {},
): Promise<DunningResult> {
  const result: DunningResult = { attempts: 0, paid: 0, failed: 0 };
  const days = settings.dunningScheduleDays ?? [];
  if (days.length === 0) return result;
  const candidates = (await deps
    .db('invoices as i')
    .join('subscriptions as s', 's.id', 'i.subscription_id')
    .leftJoin('invoice_dunning_attempts as a', 'a.invoice_id', 'i.id')
    .where('i.status', 'open')
    .where('i.due_at', '<=', new Date(now.getTime() - days[0]! * DAY_MS))
    .whereIn('s.status', [...ENTITLED_STATUSES])
    .modify((query) => {
      if (scope.teamIds) query.whereIn('s.team_id', scope.teamIds);
    })
    .groupBy('i.id')
    .orderBy('i.id')
    .select('i.id', 'i.due_at', deps.db.raw('coalesce(max(a.attempt), 0)::int as last_made'))) as Array<{ id: number; due_at: Date; last_made: number }>;
  for (const candidate of candidates) {
    const slot = dueAttempt(candidate.due_at, days, candidate.last_made, now);
    if (!slot) continue;
    const claimed = await claimDunningAttempt(deps.db, candidate.id, slot, now);
    if (!claimed) continue;
    const recorded = await attempt(deps, settings, claimed, logger, now);
    result.attempts += 1;
    if (recorded.outcome === 'charge_succeeded') result.paid += 1;
    if (recorded.outcome === 'charge_failed') result.failed += 1;
  }
  return result;
}

async function attempt(
  deps: { db: Db; queues: Queues },
  settings: BillingSettings,
  claimed: DunningAttemptRow,
  logger: Pick<Logger, 'info'>,
  now: Date,
): Promise<DunningAttemptRow> {
  const invoice = (await deps.db<InvoiceRow>('invoices').where({ id: claimed.invoice_id }).first()) as InvoiceRow;
  const provider = providerNamed(invoice.provider);
  let outcome: RetryOutcome;
  try {
    outcome = provider.retry ? await provider.retry(invoice, { db: deps.db, settings }, { number: claimed.attempt }) : { outcome: 'reminded' };
  } catch (error) {
    // Not the provider's answer (no Stripe account configured, a bug): the attempt still counts, and its mail says it failed.
    logger.info(
      { invoice: invoice.id, attempt: claimed.attempt, err: withoutSecrets((error as Error).message, settings.stripe?.secretKey) },
      'dunning attempt could not ask the payment provider',
    );
    outcome = { outcome: 'charge_failed', reason: 'the payment provider could not be reached' };
  }
  const recorded = await recordDunningOutcome(deps.db, claimed, outcome, settings.dunningScheduleDays ?? [], now);
  if (recorded.outcome === 'reminded' || recorded.outcome === 'charge_failed') {
    // The job id is the attempt's: enqueued twice (a retried sweep), it is sent once.
    await enqueue(deps.queues, 'mail.dunning-attempt', { attemptId: recorded.id }, { jobId: `dunning-attempt-${recorded.id}` });
  }
  return recorded;
}
