import { z } from 'zod';
import type { InvoiceWithLines } from '../../shared/domains/billing/invoices.ts';
import {
  ENDED_REASONS,
  INVOICE_STATUSES,
  SUBSCRIPTION_STATUSES,
  type InvoiceRow,
  type PlanRow,
  type SubscriptionRow,
} from '../../shared/domains/billing/rows.ts';
import type { Collection } from '../../shared/domains/billing/providers/payment-provider.ts';
import { planLimits } from '../../shared/domains/billing/plans.ts';
import { billingCustomerJson, billingCustomerView } from './profile.schemas.ts';

const timestamp = z.string().describe('ISO 8601 UTC');
const minor = (what: string) => z.number().int().describe(`${what}, in integer minor units of \`currency\` (cents)`);
const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

export const billingDescription =
  "Plans, the team's subscription and its invoices. Amounts are integers in minor units of the currency (4900 EUR = 49.00 EUR). " +
  'Choosing a plan makes the subscription (`incomplete`) and finalizes its first invoice; with the `manual` provider the team pays ' +
  "it by bank transfer, an operator marks it paid, and the subscription becomes `active` and its plan's limits apply to the team " +
  "(`GET /v1/entitlements`). A team's first choice of a plan with `trial_days` starts `trialing` instead: the limits at once, " +
  "no invoice until the trial ends (one trial per team). Subscription states are Stripe's: incomplete, trialing, active, " +
  "past_due, canceled, unpaid, paused. Periods end on the day of month of `billing_anchor` (the 31st renews on the month's last day). " +
  'Invoices go open → paid, void or uncollectible; their number (`BTH-2026-000001`) is assigned when they are finalized, without gaps.';

// ---- plans -------------------------------------------------------------------------------------

const planCode = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{1,48}[a-z0-9]$/, 'must be 3 to 50 lower-case letters, digits, - or _')
  .describe('What teams choose, and what `GET /v1/entitlements` shows as `plan`');

const planEntitlements = {
  max_sites: z.number().int().min(0).max(100_000),
  max_disk_bytes: z
    .number()
    .int()
    .min(0)
    .max(2 ** 50),
  environment_memory_bytes: z
    .number()
    .int()
    .min(128 * 1024 ** 2)
    .max(64 * 1024 ** 3)
    .describe("The memory cap of each environment's container"),
  environment_cpu_millicores: z.number().int().min(100).max(64_000).describe("Each environment's CPU in thousandths of a core"),
  backups_scheduled_keep: z.number().int().min(1).max(1000).describe('Scheduled backups kept per environment'),
  backups_manual_keep: z.number().int().min(1).max(1000).describe('Manual backups kept per environment'),
};

const planFields = {
  name: z.string().trim().min(1).max(100),
  price_minor: z.number().int().min(1).max(100_000_000).describe('The price per interval before tax, in minor units'),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code in upper case')
    .describe('ISO 4217, e.g. EUR'),
  interval: z.enum(['month', 'year']),
  ...planEntitlements,
  trial_days: z.number().int().min(0).max(90).describe("Days of a team's first subscription to this plan that are free (0: no trial)"),
};
const active = z.boolean().describe('Inactive plans cannot be chosen; subscriptions to them continue');

export const createPlanBody = z.strictObject({ code: planCode, ...planFields, trial_days: planFields.trial_days.default(0), active: active.default(true) });

// No defaults here: a field left out stays as it is.
export const updatePlanBody = z
  .strictObject({ ...planFields, active })
  .partial()
  .refine((body) => Object.keys(body).length > 0, { message: 'name at least one field to change' });

export const planJson = z
  .object({
    id: z.number().int(),
    code: z.string(),
    name: z.string(),
    price_minor: minor('The price per interval before tax'),
    currency: z.string(),
    interval: z.enum(['month', 'year']),
    entitlements: z.object(
      Object.fromEntries(Object.keys(planEntitlements).map((key) => [key, z.number().int()])) as { [K in keyof typeof planEntitlements]: z.ZodNumber },
    ),
    trial_days: z.number().int().describe("Free days of a team's first subscription to it (0: none)"),
    active: z.boolean(),
    updated_at: timestamp,
  })
  .meta({ id: 'Plan' });

export function planView(plan: PlanRow): z.infer<typeof planJson> {
  return {
    id: plan.id,
    code: plan.code,
    name: plan.name,
    price_minor: plan.price_minor,
    currency: plan.currency,
    interval: plan.interval,
    entitlements: planLimits(plan),
    trial_days: plan.trial_days,
    active: plan.active,
    updated_at: plan.updated_at.toISOString(),
  };
}

// ---- subscription ------------------------------------------------------------------------------

const choosePlan = z.string().min(1).max(50).describe('The code of an active plan (`GET /v1/billing/plans`)');

export const subscribeBody = z.strictObject({
  plan: choosePlan,
  trial: z.boolean().default(true).describe("false: no trial; the subscription starts `incomplete` with its first invoice (the team's one trial stays unused)"),
});

export const changePlanBody = z.strictObject({ plan: choosePlan });

export const subscriptionJson = z
  .object({
    id: z.number().int(),
    status: z.enum(SUBSCRIPTION_STATUSES),
    plan: planJson,
    pending_plan: planJson.nullable().describe('A downgrade chosen during the period: the plan it renews with at `current_period_end`'),
    provider: z.string().describe('Who collects its invoices: `manual` (bank transfer, marked paid by an operator)'),
    current_period_start: timestamp,
    current_period_end: timestamp,
    cancel_at_period_end: z.boolean().describe('true: it ends at `current_period_end` and is not renewed'),
    canceled_at: timestamp.nullable(),
    ended_at: timestamp.nullable(),
    ended_reason: z
      .enum(ENDED_REASONS)
      .nullable()
      .describe(
        'Why a `canceled` subscription ended: `canceled` (the team cancelled it), `trial_canceled` (cancelled during its trial, ended at ' +
          "the trial's end), `incomplete_expired` (its first invoice was not paid within BILLING_INCOMPLETE_EXPIRE_HOURS, 23 by default)",
      ),
    trial_start: timestamp.nullable().describe('Its trial, if it started with one; while `trialing` the period is the trial'),
    trial_end: timestamp.nullable(),
    billing_anchor: timestamp.describe(
      "Every period ends at this instant plus whole months or years, on its day of month (clamped to the month's last day): the first paid period's start (a trial's end; a resumption's time)",
    ),
    created_at: timestamp,
  })
  .meta({ id: 'Subscription' });

export function subscriptionView(subscription: SubscriptionRow, plan: PlanRow, pendingPlan: PlanRow | null): z.infer<typeof subscriptionJson> {
  return {
    id: subscription.id,
    status: subscription.status,
    plan: planView(plan),
    pending_plan: pendingPlan ? planView(pendingPlan) : null,
    provider: subscription.provider,
    current_period_start: subscription.current_period_start.toISOString(),
    current_period_end: subscription.current_period_end.toISOString(),
    cancel_at_period_end: subscription.cancel_at_period_end,
    canceled_at: iso(subscription.canceled_at),
    ended_at: iso(subscription.ended_at),
    ended_reason: subscription.ended_reason,
    trial_start: iso(subscription.trial_start),
    trial_end: iso(subscription.trial_end),
    billing_anchor: subscription.billing_anchor.toISOString(),
    created_at: subscription.created_at.toISOString(),
  };
}

// ---- invoices ----------------------------------------------------------------------------------

export const invoiceLineJson = z
  .object({
    kind: z.enum(['item', 'tax']),
    description: z.string(),
    quantity: z.number().int(),
    unit_amount_minor: minor('The price of one'),
    amount_minor: minor('quantity × unit amount; for a tax line, the tax'),
    tax_rate_bps: z.number().int().nullable().describe('Tax lines: the rate in basis points (2000 = 20 %)'),
    taxable_minor: z.number().int().nullable().describe('Tax lines: the amount the rate applies to'),
  })
  .meta({ id: 'InvoiceLine' });

export const invoiceJson = z
  .object({
    id: z.number().int(),
    number: z.string().describe('Assigned at finalization, gapless per year: <prefix>-<year>-<sequence>'),
    status: z.enum(INVOICE_STATUSES).exclude(['draft']),
    currency: z.string(),
    subtotal_minor: minor('Before tax'),
    tax_minor: minor('Tax'),
    total_minor: minor('What is owed: subtotal + tax'),
    period_start: timestamp.nullable(),
    period_end: timestamp.nullable(),
    subscription_id: z.number().int().nullable(),
    provider: z.string(),
    finalized_at: timestamp,
    due_at: timestamp,
    paid_at: timestamp.nullable(),
    voided_at: timestamp.nullable(),
    marked_uncollectible_at: timestamp.nullable(),
    payment_failed_at: timestamp.nullable().describe('When the provider last failed to collect it (a declined card); it stays open'),
    payment_failure: z.string().nullable().describe("The provider's reason for that failure"),
    customer: billingCustomerJson
      .nullable()
      .describe(
        "Who it is billed to: the team's billing profile as it was when the invoice was finalized (a later change of the profile does not change it); null: the team had none then",
      ),
    tax_note: z
      .string()
      .nullable()
      .describe(
        'What the tax needs said on the invoice when its tax is 0 % because of where the customer is: the EU reverse-charge note, or that VAT does not apply outside the EU',
      ),
    amount_credited_minor: minor('What its credit notes credit, tax included (never above the total)'),
    refund_state: z
      .enum(['partially_refunded', 'refunded'])
      .nullable()
      .describe(
        'A paid invoice with credit notes: `refunded` when they credit its whole total, else `partially_refunded`; null without any (the invoice stays `paid` either way)',
      ),
    amount_lost_minor: minor('What disputes of its payment took back (Stripe closed them lost)'),
    lines: z.array(invoiceLineJson).optional().describe('Items then tax lines (one invoice only, not in lists)'),
  })
  .meta({ id: 'Invoice' });

export function invoiceView(invoice: InvoiceRow | InvoiceWithLines): z.infer<typeof invoiceJson> {
  return {
    id: invoice.id,
    number: invoice.number ?? '',
    status: invoice.status === 'draft' ? 'open' : invoice.status, // drafts are never shown (queries leave them out)
    currency: invoice.currency,
    subtotal_minor: invoice.subtotal_minor,
    tax_minor: invoice.tax_minor,
    total_minor: invoice.total_minor,
    period_start: iso(invoice.period_start),
    period_end: iso(invoice.period_end),
    subscription_id: invoice.subscription_id,
    provider: invoice.provider,
    finalized_at: iso(invoice.finalized_at) ?? '',
    due_at: iso(invoice.due_at) ?? '',
    paid_at: iso(invoice.paid_at),
    voided_at: iso(invoice.voided_at),
    marked_uncollectible_at: iso(invoice.marked_uncollectible_at),
    payment_failed_at: iso(invoice.payment_failed_at),
    payment_failure: invoice.payment_failure,
    customer: billingCustomerView(invoice.customer),
    tax_note: invoice.tax_note,
    amount_credited_minor: invoice.amount_credited_minor,
    refund_state: invoice.amount_credited_minor === 0 ? null : invoice.amount_credited_minor >= invoice.total_minor ? 'refunded' : 'partially_refunded',
    amount_lost_minor: invoice.amount_lost_minor,
    ...('lines' in invoice
      ? {
          lines: invoice.lines.map((line) => ({
            kind: line.kind,
            description: line.description,
            quantity: line.quantity,
            unit_amount_minor: line.unit_amount_minor,
            amount_minor: line.amount_minor,
            tax_rate_bps: line.tax_rate_bps,
            taxable_minor: line.taxable_minor,
          })),
        }
      : {}),
  };
}

export const markPaidBody = z.strictObject({
  reference: z.string().trim().min(1).max(200).optional().describe("What identifies the payment (the bank transfer's id), kept on the invoice"),
});

/** How an invoice is paid, as its provider answered: at once, or later (transfer instructions, a Stripe PaymentIntent). */
export const paymentJson = z
  .object({
    outcome: z.enum(['paid', 'pending']),
    instructions: z.string().nullable(),
    stripe: z
      .object({
        payment_intent: z.string().describe('The PaymentIntent made for the invoice'),
        client_secret: z
          .string()
          .nullable()
          .describe(
            "For Stripe.js (`stripe.confirmPayment`) in the paying customer's browser; not to be stored or logged. Null in an Idempotency-Key replay (the replay cache never keeps it): `POST /v1/billing/invoices/{id}/pay` gives it again",
          ),
      })
      .optional()
      .describe('The Stripe provider only'),
  })
  .meta({ id: 'Payment' });

export function paymentView(collection: Collection): z.infer<typeof paymentJson> {
  return {
    outcome: collection.outcome,
    instructions: collection.outcome === 'pending' ? collection.instructions : null,
    ...(collection.outcome === 'pending' && collection.stripe
      ? { stripe: { payment_intent: collection.stripe.paymentIntentId, client_secret: collection.stripe.clientSecret } }
      : {}),
  };
}
