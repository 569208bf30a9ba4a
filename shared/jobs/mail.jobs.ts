import { z } from 'zod';

export const MAIL_QUEUE = 'mail';

/**
 * Mail jobs carry what to look up, never a token: the worker mints the token when it sends, so no
 * usable secret waits in Redis, and the API answers the same whether or not the address exists.
 */
export const mailJobPayloads = {
  'mail.email-verification': z.object({ email: z.string().min(1) }),
  'mail.password-reset': z.object({ email: z.string().min(1) }),
  'mail.invite': z.object({ inviteId: z.number().int().positive() }),
  'mail.device-code': z.object({ challengeId: z.number().int().positive() }),
  'mail.login-alert': z.object({ alertId: z.number().int().positive() }),
  'mail.concurrent-login': z.object({ requestId: z.number().int().positive() }),
  /** Tells the team's owners that a webhook endpoint was disabled (it answered 410, or failed for days). */
  'mail.webhook-disabled': z.object({ endpointId: z.number().int().positive() }),
  /** A finalized invoice, its PDF attached, to the team's owners and billing members. */
  'mail.invoice': z.object({ invoiceId: z.number().int().positive() }),
  /** An issued credit note, its PDF attached, to the team's owners and billing members. */
  'mail.credit-note': z.object({ creditNoteId: z.number().int().positive() }),
  /** One dunning attempt's mail (payment failed / invoice overdue) to the team's owners and billing members. */
  'mail.dunning-attempt': z.object({ attemptId: z.number().int().positive() }),
  /** The subscription became unpaid: its plan's limits were withdrawn. */
  'mail.dunning-unpaid': z.object({ subscriptionId: z.number().int().positive() }),
} as const;

export type MailJobName = keyof typeof mailJobPayloads;
