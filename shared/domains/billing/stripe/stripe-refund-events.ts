import type { Knex } from 'knex';
import type Stripe from 'stripe';
import type { CreditNoteRow } from '../rows.ts';
import { invoiceOfPaymentIntent } from './stripe-payment-intents.ts';

/**
 * `charge.refunded`: Stripe confirms refunds of an invoice's payment. Each succeeded refund the
 * charge lists marks its credit note refunded (by the refund's id, or by the `credit_note_id` of its
 * metadata when Berth never got Stripe's answer); a note refunded already stays as it is, so a
 * repeat does nothing. Newer API versions leave `charge.refunds` out: then the pending notes that
 * have a refund id are refunded when the charge's `amount_refunded` covers every note with one.
 */
export async function confirmRefunds(trx: Knex.Transaction, charge: Stripe.Charge, now: Date): Promise<'refunded' | 'ignored'> {
  const invoice = await invoiceOfPaymentIntent(trx, charge.payment_intent);
  if (!invoice) return 'ignored';
  const notes = (await trx<CreditNoteRow>('credit_notes').where({ invoice_id: invoice.id }).forUpdate()) as CreditNoteRow[];
  const refunded = (note: CreditNoteRow, refundId: string) =>
    trx('credit_notes').where({ id: note.id }).whereIn('refund_status', ['pending', 'failed']).update({ refund_status: 'refunded', provider_ref: refundId, refund_failure: null, refunded_at: now, updated_at: now });
  let changed = 0;
  const listed = charge.refunds?.data;
  if (listed) {
    for (const refund of listed.filter((entry) => entry.status === 'succeeded')) {
      const note = notes.find((entry) => entry.provider_ref === refund.id) ?? notes.find((entry) => entry.provider_ref === null && String(entry.id) === refund.metadata?.credit_note_id);
      if (note) changed += await refunded(note, refund.id);
    }
  } else {
    const withRefund = notes.filter((note) => note.provider_ref !== null && note.refund_status !== 'not_applicable');
    const covered = withRefund.reduce((sum, note) => sum + note.amount_minor, 0);
    if (charge.amount_refunded >= covered) for (const note of withRefund) changed += await refunded(note, note.provider_ref!);
  }
  return changed > 0 ? 'refunded' : 'ignored';
}
