import express, { type Request } from 'express';
import Stripe from 'stripe';
import { z } from 'zod';
import type { Context } from '../../shared/context.ts';
import { WEBHOOK_TOLERANCE_SECONDS, stripeClient } from '../../shared/domains/billing/stripe/stripe-client.ts';
import { STRIPE_EVENT_OUTCOMES, handleStripeEvent } from '../../shared/domains/billing/stripe/stripe-events.ts';
import { NotFound, WebhookSignatureInvalid } from '../../shared/errors.ts';
import { v1Router } from '../v1/authorize.ts';
import { dataEnvelope, errorEnvelope, sendData } from '../v1/envelope.ts';

const WEBHOOK_PATH = '/billing/stripe/webhook';
/** Stripe's events are a few kB; the signature covers the exact bytes, so they are read raw. */
const rawBody = express.raw({ type: () => true, limit: '256kb' });

/** The webhook's body must reach its route unparsed (the signature is over the bytes): /v1's JSON parser skips it. */
export function isStripeWebhookRequest(req: Request): boolean {
  return req.method === 'POST' && req.path.replace(/\/$/, '') === WEBHOOK_PATH;
}

const description = [
  'Stripe calls this (no Berth credentials: the `Stripe-Signature` header is checked with `STRIPE_WEBHOOK_SECRET` over the exact ',
  `body, and its timestamp must be within ${WEBHOOK_TOLERANCE_SECONDS} s). Each event acts once: its id is recorded with its effect, `,
  "so a repeat answers 200 `duplicate`. `payment_intent.succeeded` marks the invoice named by the PaymentIntent's metadata paid ",
  '(its `invoice_id` and `team_id` must name the same invoice, collected by Stripe, of the same amount and currency) and its ',
  'subscription `active` with its limits, in one transaction; `payment_intent.payment_failed` notes the failure on the invoice ',
  '(`payment_failed_at`, `payment_failure`; it stays open); for an invoice voided meanwhile it settles nothing and answers ',
  '`paid_void` (logged at error level: the operators refund it). `refund.updated`, `charge.refund.updated` and `refund.failed` ',
  'settle one refund of a credit note, matched by its id or its `metadata.credit_note_id` within the invoice of its PaymentIntent ',
  '(`refunded`, `refund_failed`); `charge.refunded` confirms the succeeded refunds it lists (without the list, nothing: its ',
  "`amount_refunded` counts pending and dashboard refunds too); `charge.dispute.created`, `.updated` and `.closed` record a dispute of an invoice's payment, matched by its ",
  "PaymentIntent (`disputed`, `dispute_closed`; a lost one is recorded as the invoice's `amount_lost_minor`, and entitlements ",
  'are left as they are). Other events, and events for no invoice of Berth: 200 `ignored`.',
].join('');

/** Stripe's events (issue 15): the only way a Stripe payment reaches Berth. */
export function billingStripeWebhookRoutes(ctx: Context) {
  const config = ctx.config.billing.stripe;
  const stripe = config ? stripeClient(config) : null;
  return v1Router().route(
    {
      method: 'post',
      path: WEBHOOK_PATH,
      tags: ['billing'],
      operationId: 'stripe.receiveWebhook',
      summary: "Stripe's webhook events",
      description,
      rawBody: { mediaTypes: ['application/json'], description: 'The event exactly as Stripe sent it (signed)' },
      // declared like every unsafe route; nothing is recorded, as Stripe is no caller of a team (the trail records callers)
      audit: { action: 'billing.stripe_event', target: 'stripe_event' },
      responses: {
        200: {
          description: 'Verified; `outcome` says what was done',
          schema: dataEnvelope(z.object({ event_id: z.string(), type: z.string(), outcome: z.enum(STRIPE_EVENT_OUTCOMES) })),
        },
        400: {
          description: 'INVALID_SIGNATURE: `details.reason` is `signature_missing`, `signature_mismatch` or `timestamp_outside_tolerance`; nothing was done',
          schema: errorEnvelope,
        },
        404: { description: 'NOT_FOUND: the Stripe provider is not configured', schema: errorEnvelope },
        413: { description: "PAYLOAD_TOO_LARGE: a body over 256 kB (Stripe's events are a few kB)", schema: errorEnvelope },
      },
    },
    async (_req, _res, next) => {
      // Not configured: the endpoint does not exist, and the body is not read.
      if (!stripe || !config) throw new NotFound('The Stripe provider is not configured');
      next();
    },
    rawBody,
    async (req, res) => {
      const signature = req.get('stripe-signature');
      if (!signature) throw new WebhookSignatureInvalid('signature_missing', 'The Stripe-Signature header is missing');
      const payload = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      let event: Stripe.Event;
      try {
        event = stripe!.webhooks.constructEvent(payload, signature, config!.webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
      } catch (error) {
        if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) throw error;
        if (/tolerance/i.test(error.message))
          throw new WebhookSignatureInvalid('timestamp_outside_tolerance', `The signature's timestamp is more than ${WEBHOOK_TOLERANCE_SECONDS} s old`);
        throw new WebhookSignatureInvalid('signature_mismatch', 'The Stripe-Signature header does not match the body');
      }
      const outcome = await handleStripeEvent(ctx.db, event);
      if (outcome === 'paid_void') {
        const intent = event.data.object as Stripe.PaymentIntent;
        req.log.error(
          { stripeEvent: event.id, type: event.type, outcome, paymentIntent: intent.id, invoiceId: intent.metadata?.invoice_id },
          'money received for a void invoice: refund it',
        );
      } else {
        req.log.info({ stripeEvent: event.id, type: event.type, outcome }, 'stripe event');
      }
      sendData(req, res, { event_id: event.id, type: event.type, outcome });
    },
  );
}
