import { expect } from 'vitest';
import type { DunningAttemptRow } from '../../shared/domains/billing/dunning-attempts.ts';
import type { InvoiceRow } from '../../shared/domains/billing/rows.ts';
import { MAIL_QUEUE } from '../../shared/jobs/mail.jobs.ts';
import { sweepAt } from './billing-lifecycle.ts';
import type { ReceivedMail } from './mailbox.ts';
import type { Stack } from './stack.ts';

const DAY_MS = 86_400_000;

/** A minute past `days` days after the invoice's due date: when that day's attempt is due. */
export function dayAfterDue(invoice: Pick<InvoiceRow, 'due_at'>, days: number): Date {
  return new Date(invoice.due_at!.getTime() + days * DAY_MS + 60_000);
}

/**
 * An active subscription's period is over: a sweep now renews it, which finalizes the next period's
 * invoice (open, due BILLING_INVOICE_DUE_DAYS later) and hands it to the provider. That invoice.
 */
export async function renewalInvoice(stack: Stack, subscriptionId: number): Promise<InvoiceRow> {
  const periodEnd = new Date(Date.now() - 60_000);
  await stack.ctx
    .db('subscriptions')
    .where({ id: subscriptionId })
    .update({ current_period_start: new Date(periodEnd.getTime() - 30 * DAY_MS), current_period_end: periodEnd });
  await sweepAt(stack, new Date());
  const renewal = (await stack.ctx.db<InvoiceRow>('invoices').where({ subscription_id: subscriptionId, status: 'open' }).first()) as InvoiceRow | undefined;
  expect(renewal, 'the sweep opened no renewal invoice').toBeDefined();
  return renewal!;
}

export function attemptsOf(stack: Stack, invoiceId: number): Promise<DunningAttemptRow[]> {
  return stack.ctx.db('invoice_dunning_attempts').where({ invoice_id: invoiceId }).orderBy('attempt') as Promise<DunningAttemptRow[]>;
}

/** Waits until the workers have sent every mail enqueued so far (none waiting, running or retrying). */
export async function mailSent(stack: Stack, timeoutMs = 15_000): Promise<void> {
  const queue = stack.ctx.queues.get(MAIL_QUEUE);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
    if (Object.values(counts).every((count) => count === 0)) return;
    if (Date.now() > deadline) throw new Error(`mail jobs still queued after ${timeoutMs} ms: ${JSON.stringify(counts)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The mails to `address` whose subject matches, once every enqueued mail has been sent. */
export async function mailsTo(stack: Stack, address: string, subject: RegExp): Promise<ReceivedMail[]> {
  await mailSent(stack);
  return stack.mailbox.to(address).filter((mail) => subject.test(mail.subject));
}

export const day = (date: Date) => date.toISOString().slice(0, 10);
