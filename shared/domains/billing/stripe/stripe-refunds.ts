import Stripe from 'stripe';
import type { ProviderDeps, RefundOutcome } from '../providers/payment-provider.ts';
import type { CreditNoteRow, InvoiceRow } from '../rows.ts';
import { requireStripe, stripeClient } from './stripe-client.ts';
import { withoutSecrets } from './stripe-retry.ts';

/**
 * A credit note paid back with Stripe: a Refund of the invoice's PaymentIntent for the note's amount.
 * Stripe's 24-hour idempotency key alone cannot guard a retry (a `create` that timed out after Stripe
 * made the refund, a note pending for days), so the refund is looked up before one is made: a
 * `pending` note with a refund id retrieves that refund; any other note adopts the PaymentIntent's
 * refund whose `metadata.credit_note_id` names it, unless that one failed. Only without such a
 * refund is one created, keyed by the credit note and by how many of its refunds failed (a key
 * whose refund failed would answer that refund again). Any Stripe error is a `failed` refund in
 * Stripe's words, without the key.
 */
export async function refundPayment(creditNote: CreditNoteRow, invoice: InvoiceRow, deps: ProviderDeps): Promise<RefundOutcome> {
  // Paid by hand (an operator's reference, not the PaymentIntent): nothing at Stripe to refund.
  if (!invoice.provider_ref || invoice.payment_reference !== invoice.provider_ref) return { outcome: 'not_applicable' };
  const config = requireStripe(deps.settings.stripe);
  const stripe = stripeClient(config);
  try {
    if (creditNote.refund_status === 'pending' && creditNote.provider_ref) return outcomeOf(await stripe.refunds.retrieve(creditNote.provider_ref));
    const made: Stripe.Refund[] = [];
    for await (const refund of stripe.refunds.list({ payment_intent: invoice.provider_ref, limit: 100 })) {
      if (refund.metadata?.credit_note_id === String(creditNote.id)) made.push(refund);
    }
    const live = made.find((refund) => refund.status !== 'failed' && refund.status !== 'canceled');
    if (live) return outcomeOf(live);
    const refund = await stripe.refunds.create(
      {
        payment_intent: invoice.provider_ref,
        amount: creditNote.amount_minor,
        metadata: { credit_note_id: String(creditNote.id), invoice_id: String(invoice.id), team_id: String(invoice.team_id) },
      },
      { idempotencyKey: `berth-credit-note-${creditNote.id}-refund${made.length > 0 ? `-${made.length + 1}` : ''}` },
    );
    return outcomeOf(refund);
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) throw error;
    return { outcome: 'failed', reason: withoutSecrets(error.message, config.secretKey) };
  }
}

/** A Stripe Refund as Berth records it; pending and requires_action settle later (refund.updated). */
export function outcomeOf(refund: Stripe.Refund): RefundOutcome {
  if (refund.status === 'succeeded') return { outcome: 'refunded', reference: refund.id };
  if (refund.status === 'failed' || refund.status === 'canceled')
    return { outcome: 'failed', reason: `Stripe's refund ${refund.id} ${refund.status}${refund.failure_reason ? ` (${refund.failure_reason})` : ''}` };
  return { outcome: 'pending', reference: refund.id };
}
