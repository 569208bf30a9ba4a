import Stripe from 'stripe';
import type { ProviderDeps, RefundOutcome } from '../providers/payment-provider.ts';
import type { CreditNoteRow, InvoiceRow } from '../rows.ts';
import { requireStripe, stripeClient } from './stripe-client.ts';
import { withoutSecrets } from './stripe-retry.ts';

/**
 * A credit note paid back with Stripe: a Refund of the invoice's PaymentIntent for the note's amount.
 * The idempotency key names the credit note, so a retry after a lost answer refunds once (Stripe
 * keeps a key's answer for 24 hours: a retry of a refund Stripe refused with a 4xx answers the same
 * refusal; a 5xx or a timeout is not kept, and the retry goes through). Any Stripe error is a
 * `failed` refund in Stripe's words, without the key.
 */
export async function refundPayment(creditNote: CreditNoteRow, invoice: InvoiceRow, deps: ProviderDeps): Promise<RefundOutcome> {
  if (!invoice.provider_ref) return { outcome: 'not_applicable' };
  const config = requireStripe(deps.settings.stripe);
  try {
    const refund = await stripeClient(config).refunds.create(
      { payment_intent: invoice.provider_ref, amount: creditNote.amount_minor, metadata: { credit_note_id: String(creditNote.id), invoice_id: String(invoice.id), team_id: String(invoice.team_id) } },
      { idempotencyKey: `berth-credit-note-${creditNote.id}-refund` },
    );
    if (refund.status === 'succeeded') return { outcome: 'refunded', reference: refund.id };
    if (refund.status === 'failed' || refund.status === 'canceled') return { outcome: 'failed', reason: `Stripe's refund ${refund.id} ${refund.status}${refund.failure_reason ? ` (${refund.failure_reason})` : ''}` };
    // pending, requires_action: Stripe settles it later and tells with charge.refunded.
    return { outcome: 'pending', reference: refund.id };
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) throw error;
    return { outcome: 'failed', reason: withoutSecrets(error.message, config.secretKey) };
  }
}
