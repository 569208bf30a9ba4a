import type { Db } from '../../db/knex.ts';
import { invoiceOverdueMail, paymentFailedMail, planWithdrawnMail } from '../../mail/dunning.templates.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { billingRecipients } from './billing-recipients.ts';
import type { DunningAttemptRow } from './dunning-attempts.ts';
import { followingAttemptAt, withdrawalAt } from './dunning-schedule.ts';
import { formatMoney } from './money.ts';
import { providerNamed } from './providers/providers.ts';
import type { BillingSettings, InvoiceRow, SubscriptionRow } from './rows.ts';

type MailDeps = { db: Db; mailer: Mailer; publicUrl: string };
type DunningSettings = Pick<BillingSettings, 'unpaidAfterDays' | 'dunningScheduleDays'>;

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The `mail.dunning-attempt` job: the attempt's mail to the team's owners and billing members —
 * "payment failed, we retry on …" after a failed charge, "invoice overdue, pay by …" after a reminder.
 * Nothing is sent for an invoice paid or voided since, or an attempt mailed already (`mailed_at`).
 */
export async function mailDunningAttempt(deps: MailDeps, attemptId: number, settings: DunningSettings): Promise<{ sent: number }> {
  const attempt = (await deps.db('invoice_dunning_attempts').where({ id: attemptId }).first()) as DunningAttemptRow | undefined;
  if (!attempt || attempt.mailed_at !== null || (attempt.outcome !== 'reminded' && attempt.outcome !== 'charge_failed')) return { sent: 0 };
  const invoice = (await deps.db<InvoiceRow>('invoices').where({ id: attempt.invoice_id }).first()) as InvoiceRow;
  if (invoice.status !== 'open') return { sent: 0 };
  const notice = {
    teamName: await teamNameOf(deps.db, invoice.team_id),
    number: invoice.number ?? '',
    amount: formatMoney(invoice.total_minor, invoice.currency),
    withdrawal: day(withdrawalAt(await oldestOpenDueAt(deps.db, invoice), settings.unpaidAfterDays)),
    link: new URL(`/billing/invoices/${invoice.id}`, deps.publicUrl).toString(),
  };
  const next = followingAttemptAt(invoice.due_at!, settings.dunningScheduleDays ?? [], attempt.attempt);
  const recipients = await billingRecipients(deps.db, invoice.team_id);
  for (const to of recipients) {
    await deps.mailer.send(
      attempt.outcome === 'charge_failed'
        ? paymentFailedMail(to, { ...notice, reason: attempt.failure_reason ?? 'the charge was declined', nextRetry: next ? day(next) : null })
        : invoiceOverdueMail(to, { ...notice, due: day(invoice.due_at!), instructions: providerNamed(invoice.provider).paymentInstructions(invoice) }),
    );
  }
  await deps.db('invoice_dunning_attempts').where({ id: attempt.id }).update({ mailed_at: new Date() });
  return { sent: recipients.length };
}

/**
 * The `mail.dunning-unpaid` job: the subscription became unpaid and its plan's limits are gone; the
 * mail names what is owed. Nothing is sent if it was paid (or ended) before the job ran.
 */
export async function mailPlanWithdrawn(deps: MailDeps, subscriptionId: number): Promise<{ sent: number }> {
  const subscription = (await deps.db<SubscriptionRow>('subscriptions').where({ id: subscriptionId }).first()) as SubscriptionRow | undefined;
  if (!subscription || subscription.status !== 'unpaid') return { sent: 0 };
  const open = (await deps.db<InvoiceRow>('invoices').where({ subscription_id: subscription.id, status: 'open' }).orderBy('due_at')) as InvoiceRow[];
  if (open.length === 0) return { sent: 0 };
  const message = {
    teamName: await teamNameOf(deps.db, subscription.team_id),
    invoices: open.map((invoice) => ({ number: invoice.number ?? '', amount: formatMoney(invoice.total_minor, invoice.currency) })),
    instructions: providerNamed(open[0]!.provider).paymentInstructions(open[0]!),
    // the panel's billing page, its invoice list filtered to the open ones
    link: new URL('/billing?invoices=open', deps.publicUrl).toString(),
  };
  const recipients = await billingRecipients(deps.db, subscription.team_id);
  for (const to of recipients) await deps.mailer.send(planWithdrawnMail(to, message));
  return { sent: recipients.length };
}

async function teamNameOf(db: Db, teamId: number): Promise<string> {
  return ((await db('teams').where({ id: teamId }).first('name')) as { name: string }).name;
}

/** The sweep withdraws the plan by the subscription's oldest open invoice, which may be older than this one. */
async function oldestOpenDueAt(db: Db, invoice: InvoiceRow): Promise<Date> {
  const oldest = (await db('invoices').where({ subscription_id: invoice.subscription_id, status: 'open' }).min({ due_at: 'due_at' }).first()) as
    { due_at: Date | null } | undefined;
  return oldest?.due_at ?? invoice.due_at!;
}
