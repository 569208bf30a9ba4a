import { Conflict } from '../../errors.ts';

/** Why a billing request conflicts with the current state; `details.reason` of the 409 on /v1. */
export type BillingConflictReason =
  | 'subscription_exists'
  | 'addon_code_taken'
  | 'subscription_ended'
  | 'subscription_not_active'
  | 'subscription_not_paused'
  | 'invoice_not_open'
  | 'invoice_not_draft'
  | 'invoice_empty'
  | 'plan_code_taken'
  | 'invoice_not_paid'
  | 'credit_exceeds_invoice'
  | 'refund_not_retryable';

/** A 409 CONFLICT that names its cause, so a client can tell them apart without parsing the message. */
export class BillingConflict extends Conflict {
  readonly reason: BillingConflictReason;
  constructor(reason: BillingConflictReason, message: string) {
    super(message);
    this.reason = reason;
  }
}
