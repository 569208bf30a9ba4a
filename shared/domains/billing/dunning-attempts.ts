import type { Db } from '../../db/knex.ts';
import type { InvoicePaymentFailedEventData } from '../webhooks/event-catalogue.ts';
import { emitEvent } from '../webhooks/events.ts';
import type { DunningSlot } from './dunning-schedule.ts';
import { followingAttemptAt } from './dunning-schedule.ts';
import { payInvoice } from './invoice-payments.ts';
import type { RetryOutcome } from './providers/payment-provider.ts';
import { ENTITLED_STATUSES, type InvoiceRow } from './rows.ts';

export const DUNNING_OUTCOMES = ['reminded', 'charge_succeeded', 'charge_failed', 'charge_pending'] as const;
export type DunningOutcome = (typeof DUNNING_OUTCOMES)[number];

export type DunningAttemptRow = {
  id: number;
  invoice_id: number;
  attempt: number;
  scheduled_for: Date;
  attempted_at: Date;
  /** null: claimed, and the provider's answer is not recorded (in progress, or its sweep died). */
  outcome: DunningOutcome | null;
  failure_reason: string | null;
  mailed_at: Date | null;
};

/**
 * Takes attempt `slot` of an invoice for this sweep, before any charge or mail, in its own short
 * transaction. The invoice's row lock makes concurrent sweeps take turns; the second then finds the
 * attempt (or a later one) made and gets null, as it does when the invoice was paid or voided, or its
 * subscription is no longer dunned (unpaid or ended: the final mail has been sent).
 */
export async function claimDunningAttempt(db: Db, invoiceId: number, slot: DunningSlot, now: Date): Promise<DunningAttemptRow | null> {
  return db.transaction(async (trx) => {
    const invoice = (await trx<InvoiceRow>('invoices').where({ id: invoiceId }).forUpdate().first()) as InvoiceRow | undefined;
    if (!invoice || invoice.status !== 'open' || invoice.subscription_id === null) return null;
    const subscription = await trx('subscriptions').where({ id: invoice.subscription_id }).first('status');
    if (!subscription || !ENTITLED_STATUSES.includes(subscription.status)) return null;
    const made = await trx('invoice_dunning_attempts').where({ invoice_id: invoiceId }).where('attempt', '>=', slot.attempt).first('id');
    if (made) return null;
    const [claimed] = await trx('invoice_dunning_attempts')
      .insert({ invoice_id: invoiceId, attempt: slot.attempt, scheduled_for: slot.scheduledFor, attempted_at: now })
      .onConflict(['invoice_id', 'attempt'])
      .ignore()
      .returning('*');
    return (claimed as DunningAttemptRow | undefined) ?? null;
  });
}

/**
 * What the provider answered, recorded in one transaction with its effect: a successful charge pays
 * the invoice (unless Stripe's webhook did first), a failed one is noted on the invoice and raises
 * `invoice.payment_failed`.
 */
export async function recordDunningOutcome(
  db: Db,
  attempt: DunningAttemptRow,
  result: RetryOutcome,
  scheduleDays: readonly number[],
  now: Date,
): Promise<DunningAttemptRow> {
  return db.transaction(async (trx) => {
    const failureReason = result.outcome === 'charge_failed' ? result.reason : null;
    const [recorded] = await trx('invoice_dunning_attempts')
      .where({ id: attempt.id })
      .update({ outcome: result.outcome, failure_reason: failureReason })
      .returning('*');
    const owner = (await trx<InvoiceRow>('invoices').where({ id: attempt.invoice_id }).first('subscription_id')) as Pick<InvoiceRow, 'subscription_id'>;
    // Subscription, then invoice: the order payInvoice locks them in.
    if (owner.subscription_id !== null) await trx('subscriptions').where({ id: owner.subscription_id }).forUpdate().first('id');
    const invoice = (await trx<InvoiceRow>('invoices').where({ id: attempt.invoice_id }).forUpdate().first()) as InvoiceRow;
    if (result.outcome === 'charge_succeeded' && (invoice.status === 'open' || invoice.status === 'uncollectible')) {
      await payInvoice(trx, invoice.id, { reference: result.reference }, now);
    }
    if (result.outcome === 'charge_failed' && invoice.status === 'open') {
      await trx('invoices').where({ id: invoice.id }).update({ payment_failed_at: now, payment_failure: result.reason, updated_at: now });
      const next = followingAttemptAt(invoice.due_at!, scheduleDays, attempt.attempt);
      const data: InvoicePaymentFailedEventData = {
        invoice: {
          id: invoice.id,
          number: invoice.number ?? '',
          status: invoice.status,
          currency: invoice.currency,
          total_minor: invoice.total_minor,
          subscription_id: invoice.subscription_id,
        },
        attempt: { number: attempt.attempt, reason: result.reason, next_attempt_at: next?.toISOString() ?? null },
      };
      await emitEvent(trx, { teamId: invoice.team_id, type: 'invoice.payment_failed', data });
    }
    return recorded as DunningAttemptRow;
  });
}
