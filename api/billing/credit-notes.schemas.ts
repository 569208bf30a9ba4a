import { z } from 'zod';
import { REFUND_STATUSES, type CreditNoteRow, type InvoiceDisputeRow } from '../../shared/domains/billing/rows.ts';
import { pageQuery } from '../v1/envelope.ts';

const timestamp = z.string().describe('ISO 8601 UTC');
const minor = (what: string) => z.number().int().describe(`${what}, in integer minor units of \`currency\` (cents)`);
const id = (what: string) =>
  z
    .string()
    .regex(/^[1-9]\d{0,9}$/, `must be ${what}`)
    .transform(Number);

export const creditNotesDescription =
  'A paid invoice is credited, in full or in part, by credit notes: numbered without gaps per year in their own series ' +
  "(`BTH-CN-2026-000001`), never more in sum, with what lost disputes took back (`amount_lost_minor`), than the invoice's total. The invoice stays `paid`; its `amount_credited_minor` grows " +
  "and `refund_state` says whether it is credited in part or in full. A credit note's tax part is the invoice's tax in proportion " +
  'to what is credited, rounded half up to a whole minor unit cumulatively (the notes of an invoice credited in full add up to its tax ' +
  "exactly). Its money goes back through the invoice's provider: Stripe refunds the card (`refund_status` `pending` until Stripe " +
  "confirms, then `refunded`; `failed` with Stripe's reason, retried by an operator), the manual provider, and a Stripe invoice an operator marked paid by hand (its payment " +
  "reference is not its PaymentIntent), record `not_applicable` (the operator transfers it back). Each credit note is mailed with its PDF where the invoice went: the billing profile's invoice email if set, else the team's owners and billing members.";

export const issueCreditNoteBody = z.strictObject({
  amount_minor: z.number().int().min(1).max(100_000_000_000).optional().describe("Tax included; left out: all that is left of the invoice's total"),
  reason: z.string().trim().min(1).max(500).describe('Why it is credited; printed on the credit note'),
  refund: z
    .boolean()
    .describe(
      "true: pay it back through the invoice's provider (Stripe refunds the card; manual: `not_applicable`, the operator transfers it). false: a credit only",
    ),
});

export const creditNotesQuery = pageQuery.extend({
  invoice_id: id('an invoice id').optional().describe("Only this invoice's"),
});
export const adminCreditNotesQuery = creditNotesQuery.extend({
  team_id: id('a team id').optional().describe("Only this team's"),
});

export const creditNoteJson = z
  .object({
    id: z.number().int(),
    number: z.string().describe('Gapless per year in its own series: <prefix>-CN-<year>-<sequence>'),
    invoice_id: z.number().int(),
    status: z.literal('issued'),
    currency: z.string(),
    amount_minor: minor('Credited, tax included'),
    tax_minor: minor('The part of it that is tax'),
    reason: z.string(),
    refund_status: z
      .enum(REFUND_STATUSES)
      .describe(
        '`pending` (asked of the provider, or settling), `refunded`, `failed` (see `refund_failure`; an operator retries it), `not_applicable` (manual provider, a Stripe invoice marked paid by hand, or a credit without a refund)',
      ),
    refund_failure: z.string().nullable().describe("The provider's reason for the last failed refund"),
    refunded_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'CreditNote' });

export function creditNoteView(note: CreditNoteRow): z.infer<typeof creditNoteJson> {
  return {
    id: note.id,
    number: note.number,
    invoice_id: note.invoice_id,
    status: note.status,
    currency: note.currency,
    amount_minor: note.amount_minor,
    tax_minor: note.tax_minor,
    reason: note.reason,
    refund_status: note.refund_status,
    refund_failure: note.refund_failure,
    refunded_at: note.refunded_at?.toISOString() ?? null,
    created_at: note.created_at.toISOString(),
  };
}

export const adminCreditNoteJson = creditNoteJson
  .extend({
    team_id: z.number().int(),
    provider_ref: z.string().nullable().describe("The provider's refund (Stripe's `re_` id)"),
  })
  .meta({ id: 'AdminCreditNote' });

export function adminCreditNoteView(note: CreditNoteRow): z.infer<typeof adminCreditNoteJson> {
  return { ...creditNoteView(note), team_id: note.team_id, provider_ref: note.provider_ref };
}

export const disputeJson = z
  .object({
    id: z.number().int(),
    amount_minor: minor('Disputed'),
    currency: z.string(),
    reason: z.string().describe("Stripe's reason, e.g. `fraudulent`"),
    status: z.string().describe("Stripe's status: `needs_response`, `under_review`... while open; `won` or `lost` once closed"),
    closed_at: timestamp.nullable(),
    lost_at: timestamp.nullable().describe("When Stripe closed it lost: its amount is in the invoice's `amount_lost_minor`"),
    created_at: timestamp,
  })
  .meta({ id: 'Dispute' });

export function disputeView(dispute: InvoiceDisputeRow): z.infer<typeof disputeJson> {
  return {
    id: dispute.id,
    amount_minor: dispute.amount_minor,
    currency: dispute.currency,
    reason: dispute.reason,
    status: dispute.status,
    closed_at: dispute.closed_at?.toISOString() ?? null,
    lost_at: dispute.lost_at?.toISOString() ?? null,
    created_at: dispute.created_at.toISOString(),
  };
}

/** What GET /v1/billing/invoices/{id} adds: the invoice's credit notes and disputes. */
export const invoiceCreditFields = {
  credit_notes: z.array(creditNoteJson).describe('Its credit notes, oldest first'),
  disputes: z.array(disputeJson).describe('Disputes of its payment Stripe reported (chargebacks), oldest first'),
};
