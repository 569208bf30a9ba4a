import type { StripeConfig } from '../../config/config.ts';
import type { BillingCustomer } from './billing-profiles.ts';

/**
 * The billing tables as the domain reads them (plain rows through knex; bigint columns arrive as
 * numbers, see shared/db/knex.ts). Kept here rather than in shared/db/models.ts: only billing uses them.
 */

/** Stripe's subscription states (without `incomplete_expired`: an unpaid first invoice is voided by cancelling). */
export const SUBSCRIPTION_STATUSES = ['incomplete', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'paused'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** The states in which the team's plan gives its entitlements. */
export const ENTITLED_STATUSES: readonly SubscriptionStatus[] = ['trialing', 'active', 'past_due'];
/** The states after which a team may choose a plan afresh. */
export const ENDED_STATUSES: readonly SubscriptionStatus[] = ['canceled'];

/**
 * Why a `canceled` subscription ended: the team cancelled it (at once, or at its period's end), it
 * was cancelled during its trial (ended at the trial's end), or its first invoice was not paid
 * within BILLING_INCOMPLETE_EXPIRE_HOURS (Stripe's `incomplete_expired`).
 */
export const ENDED_REASONS = ['canceled', 'trial_canceled', 'incomplete_expired'] as const;
export type EndedReason = (typeof ENDED_REASONS)[number];

export const INVOICE_STATUSES = ['draft', 'open', 'paid', 'void', 'uncollectible'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export type BillingInterval = 'month' | 'year';

export type PlanRow = {
  id: number;
  code: string;
  name: string;
  price_minor: number;
  currency: string;
  interval: BillingInterval;
  max_sites: number;
  max_disk_bytes: number;
  environment_memory_bytes: number;
  environment_cpu_millicores: number;
  backups_scheduled_keep: number;
  backups_manual_keep: number;
  /** Days of a team's one trial on this plan (0: none). */
  trial_days: number;
  active: boolean;
  created_at: Date;
  updated_at: Date;
};

/** An add-on of the catalogue: what one unit costs per interval and what it adds to the plan's limits. */
export type AddonRow = {
  id: number;
  code: string;
  name: string;
  price_minor: number;
  currency: string;
  interval: BillingInterval;
  extra_sites: number;
  extra_disk_bytes: number;
  extra_backups_manual_keep: number;
  extra_backups_scheduled_keep: number;
  active: boolean;
  created_at: Date;
  updated_at: Date;
};

export type SubscriptionAddonRow = {
  id: number;
  subscription_id: number;
  addon_id: number;
  quantity: number;
  /** A decrease chosen during the period: the quantity the renewal keeps (0: the add-on goes). */
  pending_quantity: number | null;
  created_at: Date;
  updated_at: Date;
};

export type SubscriptionRow = {
  id: number;
  team_id: number;
  plan_id: number;
  /** A downgrade chosen during the period: the plan the next period renews with. */
  pending_plan_id: number | null;
  status: SubscriptionStatus;
  provider: string;
  provider_ref: string | null;
  current_period_start: Date;
  current_period_end: Date;
  cancel_at_period_end: boolean;
  canceled_at: Date | null;
  ended_at: Date | null;
  ended_reason: EndedReason | null;
  /** This subscription's trial, if it started with one (its period while `trialing`). */
  trial_start: Date | null;
  trial_end: Date | null;
  /** When the team's one trial started: kept when the row is reused, so there is no second one. */
  trial_used_at: Date | null;
  /** Every period ends at the anchor plus a whole number of intervals (see periodEndAfter). */
  billing_anchor: Date;
  created_at: Date;
  updated_at: Date;
};

export type InvoiceRow = {
  id: number;
  team_id: number;
  subscription_id: number | null;
  status: InvoiceStatus;
  number: string | null;
  currency: string;
  subtotal_minor: number;
  tax_minor: number;
  total_minor: number;
  period_start: Date | null;
  period_end: Date | null;
  provider: string;
  provider_ref: string | null;
  payment_reference: string | null;
  finalized_at: Date | null;
  due_at: Date | null;
  paid_at: Date | null;
  voided_at: Date | null;
  marked_uncollectible_at: Date | null;
  /** The provider's last failed attempt to collect it (Stripe: payment_intent.payment_failed). */
  payment_failed_at: Date | null;
  payment_failure: string | null;
  /** The team's billing details its draft was taxed with, kept at finalization (null: no profile then). */
  customer: BillingCustomer | null;
  /** A note the tax needs on the invoice (the EU reverse charge), decided with the draft. */
  tax_note: string | null;
  /** The sum of its credit notes, tax included (never above the total); a paid invoice stays `paid`. */
  amount_credited_minor: number;
  /** The sum of its disputes Stripe closed as lost. */
  amount_lost_minor: number;
  created_at: Date;
  updated_at: Date;
};

export type InvoiceLineRow = {
  id: number;
  invoice_id: number;
  position: number;
  kind: 'item' | 'tax';
  description: string;
  quantity: number;
  unit_amount_minor: number;
  amount_minor: number;
  tax_rate_bps: number | null;
  taxable_minor: number | null;
};

/**
 * What invoicing needs from config (BILLING_*). `provider` collects new subscriptions (default
 * manual); `stripe` is the Stripe account, when configured; `dunningScheduleDays` the days after the
 * due date an overdue invoice is retried or reminded (none: no dunning); `sellerCountry` the seller's
 * ISO country, which the EU reverse charge needs (none: every invoice has the default rate).
 */
export type BillingSettings = {
  taxRateBps: number;
  invoicePrefix: string;
  invoiceDueDays: number;
  unpaidAfterDays: number;
  provider?: 'manual' | 'stripe';
  stripe?: StripeConfig | null;
  dunningScheduleDays?: readonly number[];
  sellerCountry?: string | null;
};

/** What a trial's end does when it was not cancelled (BILLING_TRIAL_END_BEHAVIOR). */
export type TrialEndBehavior = 'invoice' | 'pause';

/** What the sweep needs on top of invoicing (BILLING_TRIAL_END_BEHAVIOR, BILLING_INCOMPLETE_EXPIRE_HOURS). */
export type LifecycleSettings = { trialEndBehavior: TrialEndBehavior; incompleteExpireHours: number };

/**
 * How a credit note's money goes back: `pending` (asked of the provider, or its answer still
 * processing), `refunded`, `failed` (the provider refused; retried by an operator), `not_applicable`
 * (the manual provider: the operator transfers it back; or a credit note without a refund).
 */
export const REFUND_STATUSES = ['pending', 'refunded', 'failed', 'not_applicable'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export type CreditNoteRow = {
  id: number;
  team_id: number;
  invoice_id: number;
  number: string;
  status: 'issued';
  currency: string;
  /** Tax included. */
  amount_minor: number;
  /** Its part of the invoice's tax (see creditNoteTax). */
  tax_minor: number;
  reason: string;
  refund_status: RefundStatus;
  /** The provider's refund (Stripe's re_ id). */
  provider_ref: string | null;
  refund_failure: string | null;
  refunded_at: Date | null;
  issued_by_user_id: number | null;
  created_at: Date;
  updated_at: Date;
};

export type InvoiceDisputeRow = {
  id: number;
  invoice_id: number;
  team_id: number;
  stripe_dispute_id: string;
  currency: string;
  amount_minor: number;
  /** Stripe's reason (fraudulent, product_not_received...). */
  reason: string;
  /** Stripe's status (warning_needs_response, needs_response, under_review, won, lost...). */
  status: string;
  closed_at: Date | null;
  lost_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

/** The teams a sweep looks at: every team, unless some are named (tests that move time forward for their own teams only). */
export type SweepScope = { teamIds?: readonly number[] };
