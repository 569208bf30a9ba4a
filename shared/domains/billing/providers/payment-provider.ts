import type { Db } from '../../../db/knex.ts';
import type { BillingSettings, CreditNoteRow, InvoiceRow } from '../rows.ts';

/** What a provider says after it was asked to collect a finalized invoice. */
export type Collection =
  /** Paid at once (a card charged): the invoice is marked paid by the caller. */
  | { outcome: 'paid'; reference: string | null }
  /**
   * Paid later, out of band (a bank transfer an operator marks, a webhook): the invoice stays open.
   * `stripe`: the PaymentIntent the panel confirms with Stripe.js (its client secret is meant for
   * the paying customer's browser, never for logs, mails or PDFs).
   */
  | { outcome: 'pending'; instructions: string; stripe?: { paymentIntentId: string; clientSecret: string } };

/**
 * What a dunning attempt came to. `reminded`: nothing was charged (the customer is asked to pay);
 * `charge_succeeded`: paid now (the caller marks the invoice paid); `charge_failed`: `reason` in the
 * provider's words, never a key or client secret; `charge_pending`: the payment is processing and
 * its webhook will settle it.
 */
export type RetryOutcome =
  | { outcome: 'reminded' }
  | { outcome: 'charge_succeeded'; reference: string | null }
  | { outcome: 'charge_failed'; reason: string }
  | { outcome: 'charge_pending' };

/**
 * What a provider says after it was asked to pay a credit note back: `refunded` (done), `pending`
 * (accepted, settling: a webhook confirms it), `failed` with the provider's words (never a key),
 * `not_applicable` (nothing to do through the provider: a bank transfer by the operator).
 */
export type RefundOutcome = { outcome: 'refunded' | 'pending'; reference: string } | { outcome: 'failed'; reason: string } | { outcome: 'not_applicable' };

/** What a provider may use while collecting: the database and the billing settings (the Stripe account). */
export type ProviderDeps = { db: Db; settings: BillingSettings };

/**
 * How invoices get paid. Berth owns subscriptions and invoices (states, numbers, entitlements); a
 * provider only collects money for a finalized invoice. `manual`: the customer pays by bank
 * transfer and an operator marks the invoice paid. `stripe`: a PaymentIntent per invoice, reported
 * paid through verified webhooks (shared/domains/billing/stripe/).
 */
export interface PaymentProvider {
  /** Stored on subscriptions and invoices; picks the provider back out of the registry. */
  readonly name: string;
  /** Called after the finalizing transaction has committed, never inside it (a provider may do I/O). */
  collect(invoice: InvoiceRow, deps: ProviderDeps): Promise<Collection>;
  /**
   * One dunning attempt on an overdue open invoice (its row is claimed already, so this runs once per
   * attempt number; `attempt` keys Stripe's idempotency). Without it, the attempt is a reminder.
   */
  retry?(invoice: InvoiceRow, deps: ProviderDeps, attempt: { number: number }): Promise<RetryOutcome>;
  /**
   * Pays a credit note's amount back on the invoice's payment; called after the credit note's
   * transaction has committed, and again by an operator's retry (idempotent per credit note).
   * Without it, credit notes are `not_applicable`: the operator transfers the money back.
   */
  refund?(creditNote: CreditNoteRow, invoice: InvoiceRow, deps: ProviderDeps): Promise<RefundOutcome>;
  /**
   * The invoice was voided before it was paid (a subscription abandoned or expired): whatever the
   * customer could still pay it with is withdrawn. `already_paid`: the money arrived first (the
   * operators refund it); absent: nothing to withdraw (a bank transfer is simply not expected).
   */
  withdraw?(invoice: InvoiceRow, deps: ProviderDeps): Promise<'withdrawn' | 'already_paid' | 'nothing'>;
  /** What the invoice's PDF and mail tell the customer while it is open (null: nothing to do, e.g. a card on file). No I/O. */
  paymentInstructions(invoice: InvoiceRow): string | null;
}
