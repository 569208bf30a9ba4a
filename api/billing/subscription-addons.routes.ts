import type { Request, Response } from 'express';
import type { Context } from '../../shared/context.ts';
import { issueInvoice } from '../../shared/domains/billing/issue-invoice.ts';
import type { SubscriptionRow } from '../../shared/domains/billing/rows.ts';
import { removeAddon, setAddonQuantity, type AddonChangeResult } from '../../shared/domains/billing/subscription-addons.ts';
import { subscriptionLimits } from '../../shared/domains/billing/subscription-limits.ts';
import { findSubscription } from '../../shared/domains/billing/subscriptions.ts';
import { z } from 'zod';
import { parseOrFail } from '../middleware/validate.ts';
import { v1Router } from '../v1/authorize.ts';
import { addonQuantityBody, addonsDescription, heldAddonJson, heldAddonView, subscriptionLimitsJson } from './addons.schemas.ts';
import { invoiceJson, invoiceView } from './billing.schemas.ts';
import { dataEnvelope, errorEnvelope, sendData } from '../v1/envelope.ts';
import { principalOf } from '../v1/principal.ts';
import { name } from '../openapi/path-parameters.ts';

const common = { tags: ['billing'], security: ['bearerAuth', 'sessionCookie'] as Array<'bearerAuth' | 'sessionCookie'> };
const forbidden = { description: 'AUTHORIZATION_ERROR: `details.permission` is missing', schema: errorEnvelope };
const notActive = {
  description: 'CONFLICT: the subscription is not active, or ends at period end (`details.reason: subscription_not_active`)',
  schema: errorEnvelope,
};

const addonsAnswer = z.object({ addons: z.array(heldAddonJson), ...subscriptionLimitsJson });
const changeAnswer = z.object({
  addon: heldAddonJson.nullable().describe('The add-on as the subscription holds it now'),
  effective: z
    .enum(['now', 'period_end', 'unchanged'])
    .describe(
      'now: an increase, entitled and invoiced at once; period_end: a decrease or removal, at the renewal; unchanged: the quantity held (a pending decrease dropped)',
    ),
  invoice: invoiceJson.nullable().describe('The proration invoice of an increase (null otherwise)'),
  ...subscriptionLimitsJson,
});

/** The add-ons the team's subscription holds (issue 15). */
export function billingSubscriptionAddonsRoutes(ctx: Context) {
  const settings = ctx.config.billing;

  async function limitsView(subscription: SubscriptionRow) {
    const limits = await subscriptionLimits(ctx.db, subscription);
    return { addons: limits.addons.map(heldAddonView), entitlements: limits.entitlements, entitlements_at_renewal: limits.entitlementsAtRenewal };
  }

  /** After the commit: the increase's invoice is mailed and collected, like an upgrade's. */
  async function answerChange(req: Request, res: Response, change: AddonChangeResult) {
    if (change.invoice) await issueInvoice(ctx, change.invoice, settings);
    const { entitlements, entitlements_at_renewal } = await limitsView(change.subscription);
    sendData(req, res, {
      addon: change.addon ? heldAddonView(change.addon) : null,
      effective: change.effective,
      invoice: change.invoice ? invoiceView(change.invoice) : null,
      entitlements,
      entitlements_at_renewal,
    });
  }

  return v1Router()
    .route(
      {
        ...common,
        method: 'get',
        path: '/billing/subscription/addons',
        operationId: 'subscriptionAddons.list',
        summary: "The add-ons of the team's subscription",
        description: addonsDescription,
        permission: 'billing:read',
        responses: {
          200: { description: 'Its add-ons in the order bought, and the limits they give with the plan', schema: dataEnvelope(addonsAnswer) },
          403: forbidden,
          404: { description: 'NOT_FOUND: the team has no subscription', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        sendData(req, res, await limitsView(await findSubscription(ctx.db, principalOf(res).team_id)));
      },
    )
    .route(
      {
        ...common,
        method: 'put',
        path: '/billing/subscription/addons/:code',
        params: { code: name("The add-on's code") },
        operationId: 'subscriptionAddons.set',
        summary: 'Hold an add-on in some quantity',
        permission: 'billing:manage',
        body: addonQuantityBody,
        description:
          "For an `active` subscription, an add-on on sale billed in the plan's currency and interval. More units than held apply at " +
          "once: the limits are written and an invoice charges the rest of the period by the second (the old quantity's unused seconds " +
          "credited, the new quantity's charged, each line rounded to the minor unit), finalized and collected like the others. Fewer " +
          'units take effect at the renewal (`pending_quantity`). The quantity held drops a pending decrease. `effective` says which happened.',
        audit: { action: 'subscription.addon_changed', target: 'addon', targetParam: 'code' },
        responses: {
          200: { description: "The add-on as held, the increase's invoice, and the resulting limits", schema: dataEnvelope(changeAnswer) },
          403: forbidden,
          404: { description: 'NOT_FOUND: the team has no subscription, or no add-on has this code', schema: errorEnvelope },
          409: notActive,
          422: {
            description:
              'VALIDATION_ERROR: `quantity` is not a whole number from 1 to 100, or `code` names an add-on no longer sold or billed in another currency or interval than the plan',
            schema: errorEnvelope,
          },
          502: {
            description:
              "UPSTREAM_ERROR: the payment provider did not answer for the increase's invoice; it is open: pay it with `POST /v1/billing/invoices/{id}/pay`",
            schema: errorEnvelope,
          },
        },
      },
      async (req, res) => {
        const body = parseOrFail(addonQuantityBody, req.body);
        await answerChange(req, res, await setAddonQuantity(ctx.db, principalOf(res).team_id, String(req.params.code), body.quantity, settings));
      },
    )
    .route(
      {
        ...common,
        method: 'delete',
        path: '/billing/subscription/addons/:code',
        params: { code: name("The add-on's code") },
        operationId: 'subscriptionAddons.remove',
        summary: 'Remove an add-on at the renewal',
        permission: 'billing:manage',
        description:
          'The add-on goes when the period renews (`pending_quantity: 0`), and is not billed again; until then the team keeps its units. To keep it after all, PUT its current quantity.',
        audit: { action: 'subscription.addon_removed', target: 'addon', targetParam: 'code' },
        responses: {
          200: { description: 'The add-on as held until the renewal, and the resulting limits', schema: dataEnvelope(changeAnswer) },
          403: forbidden,
          404: { description: 'NOT_FOUND: the team has no subscription, or it holds no add-on with this code', schema: errorEnvelope },
          409: notActive,
        },
      },
      async (req, res) => {
        await answerChange(req, res, await removeAddon(ctx.db, principalOf(res).team_id, String(req.params.code)));
      },
    );
}
