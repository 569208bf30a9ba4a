import type { Knex } from 'knex';
import type { CreditNoteEventData, InvoiceDisputeEventData, InvoiceEventData, SubscriptionEventData } from '../webhooks/event-catalogue.ts';
import { emitEvent } from '../webhooks/events.ts';
import { heldAddons } from './held-addons.ts';
import type { CreditNoteRow, InvoiceDisputeRow, InvoiceRow, PlanRow, SubscriptionRow } from './rows.ts';

/** Webhook events of billing, written to the outbox in the transaction of the change they report. */
export async function emitInvoiceEvent(
  trx: Knex.Transaction,
  type: 'invoice.finalized' | 'invoice.paid' | 'invoice.voided' | 'invoice.marked_uncollectible',
  invoice: InvoiceRow,
): Promise<void> {
  if (invoice.status === 'draft') return;
  const data: InvoiceEventData = {
    invoice: {
      id: invoice.id,
      number: invoice.number ?? '',
      status: invoice.status,
      currency: invoice.currency,
      total_minor: invoice.total_minor,
      subscription_id: invoice.subscription_id,
    },
  };
  await emitEvent(trx, { teamId: invoice.team_id, type, data });
}

export async function emitCreditNoteIssued(trx: Knex.Transaction, creditNote: CreditNoteRow, invoice: InvoiceRow): Promise<void> {
  const data: CreditNoteEventData = {
    credit_note: {
      id: creditNote.id,
      number: creditNote.number,
      invoice_id: invoice.id,
      invoice_number: invoice.number ?? '',
      currency: creditNote.currency,
      amount_minor: creditNote.amount_minor,
      tax_minor: creditNote.tax_minor,
      reason: creditNote.reason,
      refund_status: creditNote.refund_status,
    },
  };
  await emitEvent(trx, { teamId: creditNote.team_id, type: 'credit_note.issued', data });
}

export async function emitDisputeEvent(
  trx: Knex.Transaction,
  type: 'invoice.disputed' | 'invoice.dispute_closed',
  dispute: InvoiceDisputeRow,
  invoice: InvoiceRow,
): Promise<void> {
  const data: InvoiceDisputeEventData = {
    invoice: {
      id: invoice.id,
      number: invoice.number ?? '',
      status: invoice.status === 'draft' ? 'open' : invoice.status,
      currency: invoice.currency,
      total_minor: invoice.total_minor,
      subscription_id: invoice.subscription_id,
    },
    dispute: { id: dispute.id, amount_minor: dispute.amount_minor, currency: dispute.currency, reason: dispute.reason, status: dispute.status },
  };
  await emitEvent(trx, { teamId: invoice.team_id, type, data });
}

export async function emitSubscriptionEvent(
  trx: Knex.Transaction,
  type: 'subscription.created' | 'subscription.updated' | 'subscription.canceled',
  subscription: SubscriptionRow,
  plan?: PlanRow,
): Promise<void> {
  const code =
    plan?.id === subscription.plan_id ? plan.code : ((await trx('plans').where({ id: subscription.plan_id }).first('code')) as { code: string }).code;
  const data: SubscriptionEventData = {
    subscription: {
      id: subscription.id,
      status: subscription.status,
      plan: code,
      cancel_at_period_end: subscription.cancel_at_period_end,
      current_period_end: subscription.current_period_end.toISOString(),
      trial_end: subscription.trial_end?.toISOString() ?? null,
      ended_reason: subscription.ended_reason,
      addons: await addonsOf(trx, subscription.id),
    },
  };
  await emitEvent(trx, { teamId: subscription.team_id, type, data });
}

async function addonsOf(trx: Knex.Transaction, subscriptionId: number): Promise<SubscriptionEventData['subscription']['addons']> {
  return (await heldAddons(trx, { subscriptionId })).map((addon) => ({ code: addon.code, quantity: addon.quantity, pending_quantity: addon.pending_quantity }));
}
