import type { Context } from '../../shared/context.ts';
import { findInvoice } from '../../shared/domains/billing/invoices.ts';
import { collectInvoice, issueInvoice } from '../../shared/domains/billing/issue-invoice.ts';
import { changePlan } from '../../shared/domains/billing/plan-change.ts';
import { resumeSubscription } from '../../shared/domains/billing/resume-subscription.ts';
import { cancelSubscription, findSubscription, subscribe } from '../../shared/domains/billing/subscriptions.ts';
import { z } from 'zod';
import { parseOrFail } from '../middleware/validate.ts';
import { v1Router } from '../v1/authorize.ts';
import { billingDescription, changePlanBody, invoiceJson, invoiceView, paymentJson, paymentView, subscribeBody, subscriptionJson } from './billing.schemas.ts';
import { keepClientSecretOutOfReplay } from './payment-replay.ts';
import { withdrawVoidedInvoices } from '../../shared/domains/billing/withdraw-voided.ts';
import { subscriptionAnswer } from './subscription-view.ts';
import { dataEnvelope, errorEnvelope, sendData } from '../v1/envelope.ts';
import { principalOf } from '../v1/principal.ts';

const common = { tags: ['billing'], security: ['bearerAuth', 'sessionCookie'] as Array<'bearerAuth' | 'sessionCookie'> };
const forbidden = { description: 'AUTHORIZATION_ERROR: `details.permission` is missing', schema: errorEnvelope };
const none = { description: 'NOT_FOUND: the team has no subscription', schema: errorEnvelope };

/** The team's one subscription (issue 15): choose, change, cancel, resume. */
export function billingSubscriptionRoutes(ctx: Context) {
  const settings = ctx.config.billing;
  return v1Router()
    .route(
      {
        ...common,
        method: 'get',
        path: '/billing/subscription',
        operationId: 'subscription.get',
        summary: "The team's subscription",
        description: billingDescription,
        permission: 'billing:read',
        responses: {
          200: { description: 'The subscription, ended ones included (status `canceled`)', schema: dataEnvelope(subscriptionJson) },
          403: forbidden,
          404: none,
        },
      },
      async (req, res) => {
        const subscription = await findSubscription(ctx.db, principalOf(res).team_id);
        sendData(req, res, await subscriptionAnswer(ctx.db, subscription));
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: '/billing/subscription',
        operationId: 'subscription.create',
        summary: 'Choose a plan',
        permission: 'billing:manage',
        body: subscribeBody,
        description:
          "Subscribes the team to an active plan. The team's first subscription to a plan with `trial_days` (unless `trial: false`) " +
          "starts `trialing`: the plan's limits apply at once, there is no invoice (`invoice` and `payment` are null), and the trial " +
          'is the first period; the team gets one trial, ever (cancelling and choosing again starts none). At its end the first paid ' +
          'period starts (`billing_anchor`) with its invoice and the subscription is `active` (unpaid, it goes `past_due` then ' +
          '`unpaid` like any invoice), or, when the platform runs with BILLING_TRIAL_END_BEHAVIOR=pause, it is `paused` until resumed ' +
          '(`POST /v1/billing/subscription/resume`); a trial cancelled meanwhile ends then (`ended_reason: trial_canceled`). Otherwise ' +
          'the subscription starts `incomplete` with its first period (from now) and its first invoice, finalized and numbered. ' +
          '`payment.instructions` says how to pay it; with the `manual` provider an operator marks it paid when the bank transfer ' +
          "arrives (with `stripe`, `payment.stripe` holds the PaymentIntent's client secret for Stripe.js and Stripe's webhook marks " +
          "it paid), and the subscription becomes `active`: the plan's limits apply to the team at once (site creation is unlocked). " +
          'Not paid within BILLING_INCOMPLETE_EXPIRE_HOURS (23 by default), it is cancelled and the invoice voided ' +
          '(`ended_reason: incomplete_expired`), and the team may choose again. One subscription per team: while one is not ' +
          '`canceled`, 409 `subscription_exists` (change plans with PATCH).',
        audit: { action: 'subscription.created', target: 'subscription' },
        responses: {
          201: {
            description: 'The subscription, its first invoice and how to pay it (both null for a trial)',
            schema: dataEnvelope(z.object({ subscription: subscriptionJson, invoice: invoiceJson.nullable(), payment: paymentJson.nullable() })),
          },
          502: {
            description:
              'UPSTREAM_ERROR: the payment provider did not answer; the subscription and its open invoice exist: pay it with `POST /v1/billing/invoices/{id}/pay`',
            schema: errorEnvelope,
          },
          403: forbidden,
          409: { description: 'CONFLICT: the team has a subscription that has not ended (`details.reason: subscription_exists`)', schema: errorEnvelope },
          422: { description: 'VALIDATION_ERROR: `plan` names no plan, or one no longer offered', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const body = parseOrFail(subscribeBody, req.body);
        const { subscription, invoice } = await subscribe(ctx.db, principalOf(res).team_id, body.plan, settings, new Date(), { trial: body.trial });
        // After the commit: the invoice is mailed, and a provider may call out (the manual one only tells how to pay).
        const collection = invoice ? await issueInvoice(ctx, invoice, settings) : null;
        const current = collection?.outcome === 'paid' ? await findSubscription(ctx.db, subscription.team_id) : subscription;
        res.setHeader('Location', `${req.baseUrl}/billing/subscription`);
        keepClientSecretOutOfReplay(res);
        sendData(
          req,
          res,
          {
            subscription: await subscriptionAnswer(ctx.db, current),
            invoice: invoice ? invoiceView(invoice) : null,
            payment: collection ? paymentView(collection) : null,
          },
          201,
        );
      },
    )
    .route(
      {
        ...common,
        method: 'patch',
        path: '/billing/subscription',
        operationId: 'subscription.update',
        summary: 'Change plans',
        permission: 'billing:manage',
        body: changePlanBody,
        description:
          'During a trial, to any active plan: it applies at once (its limits written), without an invoice; the trial keeps its end and ' +
          'the first invoice bills the plan chosen last. ' +
          'For an `active` subscription, to a plan billed in the same currency and interval. An upgrade (a price at least the current ' +
          "one) applies at once: the new plan's limits are written and an invoice charges the rest of the period by the second (the " +
          "old plan's unused seconds credited, the new plan's charged, each line rounded to the minor unit), finalized and collected " +
          'like the others. A downgrade takes effect when the period renews (`pending_plan`), billed and entitled then. Choosing the ' +
          'current plan drops a pending downgrade. `effective` says which happened.',
        audit: { action: 'subscription.plan_changed', target: 'subscription' },
        responses: {
          502: {
            description:
              "UPSTREAM_ERROR: the payment provider did not answer for the upgrade's invoice; it is open: pay it with `POST /v1/billing/invoices/{id}/pay`",
            schema: errorEnvelope,
          },
          200: {
            description: 'The subscription, and the proration invoice of an upgrade (null otherwise)',
            schema: dataEnvelope(
              z.object({ subscription: subscriptionJson, effective: z.enum(['now', 'period_end', 'unchanged']), invoice: invoiceJson.nullable() }),
            ),
          },
          403: forbidden,
          404: none,
          409: {
            description:
              'CONFLICT: the subscription is not active or trialing (paused: resume it first), or ends at period end (`details.reason: subscription_not_active`)',
            schema: errorEnvelope,
          },
          422: { description: 'VALIDATION_ERROR: `plan` names no plan on sale, or one billed in another currency or interval', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const body = parseOrFail(changePlanBody, req.body);
        const { subscription, invoice, effective } = await changePlan(ctx.db, principalOf(res).team_id, body.plan, settings);
        if (invoice) await issueInvoice(ctx, invoice, settings);
        const current = invoice ? await findSubscription(ctx.db, subscription.team_id) : subscription;
        sendData(req, res, { subscription: await subscriptionAnswer(ctx.db, current), effective, invoice: invoice ? invoiceView(invoice) : null });
      },
    )
    .route(
      {
        ...common,
        method: 'delete',
        path: '/billing/subscription',
        operationId: 'subscription.cancel',
        summary: 'Cancel the subscription',
        permission: 'billing:manage',
        description:
          'An active subscription keeps its plan until `current_period_end`, then ends (`cancel_at_period_end: true`; it is not renewed). ' +
          "A `trialing` one keeps its limits until the trial's end, then ends without an invoice (`ended_reason: trial_canceled`). " +
          'An `incomplete` one (first invoice not paid) or a `paused` one ends at once and its open invoice is voided; an `unpaid` one ' +
          'ends at once. Once ended, ' +
          "the team's limits are withdrawn: its sites keep running, new ones answer 402 until it chooses a plan again.",
        audit: { action: 'subscription.canceled', target: 'subscription' },
        responses: {
          200: { description: 'The subscription as it is now', schema: dataEnvelope(subscriptionJson) },
          403: forbidden,
          404: none,
          409: { description: 'CONFLICT: it has ended already (`details.reason: subscription_ended`)', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const { subscription, voided } = await cancelSubscription(ctx.db, principalOf(res).team_id);
        await withdrawVoidedInvoices(ctx, ctx.config.billing, voided);
        sendData(req, res, await subscriptionAnswer(ctx.db, subscription));
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: '/billing/subscription/resume',
        operationId: 'subscription.resume',
        summary: 'Resume a paused subscription',
        permission: 'billing:manage',
        description:
          "A subscription paused at its trial's end starts a new period now, which becomes its `billing_anchor`, with that period's " +
          'invoice finalized, mailed and collected like the first one. It stays `paused` (no limits: sites keep running, new ones answer ' +
          "402) until that invoice is paid, then becomes `active` with its plan's limits. Asked again while that invoice is open, it " +
          'answers the same invoice. A paused subscription may instead be cancelled (`DELETE`): it ends at once and the invoice is voided.',
        audit: { action: 'subscription.resumed', target: 'subscription' },
        responses: {
          200: {
            description: "The subscription (still `paused`), the new period's invoice and how to pay it",
            schema: dataEnvelope(z.object({ subscription: subscriptionJson, invoice: invoiceJson, payment: paymentJson })),
          },
          403: forbidden,
          404: none,
          409: {
            description: 'CONFLICT: the subscription is not paused (`details.reason: subscription_not_paused`), or has ended (`subscription_ended`)',
            schema: errorEnvelope,
          },
          502: {
            description: 'UPSTREAM_ERROR: the payment provider did not answer; the invoice is open: pay it with `POST /v1/billing/invoices/{id}/pay`',
            schema: errorEnvelope,
          },
        },
      },
      async (req, res) => {
        const { subscription, invoice, issued } = await resumeSubscription(ctx.db, principalOf(res).team_id, settings);
        // A new invoice is mailed and collected; the one already waiting is only asked for again.
        const collection = issued ? await issueInvoice(ctx, invoice, settings) : await collectInvoice(ctx, invoice, settings);
        const current = collection.outcome === 'paid' ? await findSubscription(ctx.db, subscription.team_id) : subscription;
        keepClientSecretOutOfReplay(res);
        sendData(req, res, {
          subscription: await subscriptionAnswer(ctx.db, current),
          invoice: invoiceView(collection.outcome === 'paid' ? await findInvoice(ctx.db, invoice.team_id, invoice.id) : invoice),
          payment: paymentView(collection),
        });
      },
    );
}
