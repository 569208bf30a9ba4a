import { z } from 'zod';
import { DUNNING_OUTCOMES } from '../../shared/domains/billing/dunning-attempts.ts';
import type { InvoiceDunning } from '../../shared/domains/billing/invoice-dunning.ts';

const timestamp = z.string().describe('ISO 8601 UTC');

export const dunningAttemptJson = z
  .object({
    attempt: z.number().int().describe('Its place in the schedule, from 1; a number is skipped when the sweep missed its day (no burst afterwards)'),
    scheduled_for: timestamp.describe('The due date plus that day of the schedule'),
    attempted_at: timestamp,
    outcome: z
      .enum(DUNNING_OUTCOMES)
      .nullable()
      .describe(
        '`reminded` (manual: a reminder mailed), `charge_succeeded` (the saved card paid it), `charge_failed` (see `failure_reason`; mailed), ' +
          '`charge_pending` (the payment is processing); null while the attempt is under way',
      ),
    failure_reason: z.string().nullable().describe("The provider's reason for a failed charge (a decline message, or `no saved card`)"),
  })
  .meta({ id: 'DunningAttempt' });

export const invoiceDunningFields = {
  dunning_attempts: z.array(dunningAttemptJson).describe('The dunning attempts made on this invoice since it became overdue, oldest first'),
  next_attempt_at: timestamp
    .nullable()
    .describe('When the next dunning attempt is due; null once the invoice is settled, its subscription is unpaid or ended, or the schedule is used up'),
};

/** How overdue invoices are dunned, for the OpenAPI description of an invoice. */
export function dunningDescription(scheduleDays: readonly number[], unpaidAfterDays: number): string {
  const days =
    scheduleDays.length > 0
      ? `on days ${scheduleDays.join(', ')} after its due date (BILLING_DUNNING_SCHEDULE_DAYS)`
      : 'never (BILLING_DUNNING_SCHEDULE_DAYS is empty)';
  return (
    `An open invoice past its due date makes its subscription \`past_due\` and is dunned ${days}: the Stripe provider charges the ` +
    "customer's saved default card again, the manual provider sends a reminder; each attempt mails the team's owners and billing members, and " +
    'a failed charge raises the webhook event `invoice.payment_failed`. Days the billing sweep missed are not made up: only the latest due attempt is made. ' +
    `Still open ${unpaidAfterDays} days after its due date (BILLING_UNPAID_AFTER_DAYS), the subscription becomes \`unpaid\`, its plan's limits are withdrawn, and a last mail says so.`
  );
}

export function invoiceDunningView(dunning: InvoiceDunning): { dunning_attempts: Array<z.infer<typeof dunningAttemptJson>>; next_attempt_at: string | null } {
  return {
    dunning_attempts: dunning.attempts.map((row) => ({
      attempt: row.attempt,
      scheduled_for: row.scheduled_for.toISOString(),
      attempted_at: row.attempted_at.toISOString(),
      outcome: row.outcome,
      failure_reason: row.failure_reason,
    })),
    next_attempt_at: dunning.nextAttemptAt?.toISOString() ?? null,
  };
}
