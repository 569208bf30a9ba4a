import type { Knex } from 'knex';
import type Stripe from 'stripe';
import type { CreditNoteRow } from '../rows.ts';
import { invoiceOfPaymentIntent } from './stripe-payment-intents.ts';
import { outcomeOf } from './stripe-refunds.ts';

/**
 * `refund.updated`, `charge.refund.updated`, `refund.failed`: Stripe settles one refund. Its credit
 * note is found within the invoice of the refund's PaymentIntent, by the refund's id, else (Berth
 * never got Stripe's answer) by `metadata.credit_note_id`. `succeeded`
 * marks it refunded, `failed` or `canceled` failed with Stripe's reason (the retry route asks again);
 * a pending refund, a refund of no note (made in Stripe's dashboard) or one the note has moved on
 * from changes nothing.
 */
export async function settleRefund(trx: Knex.Transaction, refund: Stripe.Refund, now: Date): Promise<'refunded' | 'refund_failed' | 'ignored'> {
  const invoice = await invoiceOfPaymentIntent(trx, refund.payment_intent);
  if (!invoice) return 'ignored';
  const notes = (await trx<CreditNoteRow>('credit_notes').where({ invoice_id: invoice.id }).forUpdate()) as CreditNoteRow[];
  const note = noteOf(notes, refund);
  if (!note) return 'ignored';
  const outcome = outcomeOf(refund);
  if (outcome.outcome === 'refunded') return (await markRefunded(trx, note, refund.id, now)) > 0 ? 'refunded' : 'ignored';
  if (outcome.outcome !== 'failed') return 'ignored';
  // A refund can fail after it succeeded (the card was closed): the money is owed again.
  const failed = await trx('credit_notes')
    .where({ id: note.id })
    .whereIn('refund_status', ['pending', 'refunded'])
    .update({ refund_status: 'failed', provider_ref: refund.id, refund_failure: outcome.reason, refunded_at: null, updated_at: now });
  return failed > 0 ? 'refund_failed' : 'ignored';
}

/**
 * `charge.refunded`: Stripe confirms refunds of an invoice's payment. Each succeeded refund the
 * charge lists marks its credit note refunded (matched as settleRefund matches); a note refunded
 * already stays as it is, so a repeat does nothing. Newer API versions leave `charge.refunds` out;
 * then nothing is confirmed, as the charge's `amount_refunded` counts pending refunds and refunds
 * made in Stripe's dashboard alike: each refund's own `refund.updated` settles its note.
 */
export async function confirmRefunds(trx: Knex.Transaction, charge: Stripe.Charge, now: Date): Promise<'refunded' | 'ignored'> {
  const listed = charge.refunds?.data;
  if (!listed) return 'ignored';
  const invoice = await invoiceOfPaymentIntent(trx, charge.payment_intent);
  if (!invoice) return 'ignored';
  const notes = (await trx<CreditNoteRow>('credit_notes').where({ invoice_id: invoice.id }).forUpdate()) as CreditNoteRow[];
  let changed = 0;
  for (const refund of listed.filter((entry) => entry.status === 'succeeded')) {
    const note = noteOf(notes, refund);
    if (note) changed += await markRefunded(trx, note, refund.id, now);
  }
  return changed > 0 ? 'refunded' : 'ignored';
}

/**
 * The note a refund pays back: by its id, else by its metadata when the note has no live refund id
 * (none yet, or one that failed: a retry's refund whose answer was lost).
 */
function noteOf(notes: CreditNoteRow[], refund: Stripe.Refund): CreditNoteRow | undefined {
  return (
    notes.find((note) => note.provider_ref === refund.id) ??
    notes.find((note) => (note.provider_ref === null || note.refund_status === 'failed') && String(note.id) === refund.metadata?.credit_note_id)
  );
}

function markRefunded(trx: Knex.Transaction, note: CreditNoteRow, refundId: string, now: Date): Promise<number> {
  return trx('credit_notes')
    .where({ id: note.id })
    .whereIn('refund_status', ['pending', 'failed'])
    .update({ refund_status: 'refunded', provider_ref: refundId, refund_failure: null, refunded_at: now, updated_at: now });
}
