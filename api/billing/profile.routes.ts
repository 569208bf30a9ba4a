import type { Context } from '../../shared/context.ts';
import { findBillingProfile, putBillingProfile } from '../../shared/domains/billing/billing-profiles.ts';
import { OUTSIDE_EU_NOTE, REVERSE_CHARGE_NOTE } from '../../shared/domains/billing/tax-rule.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { v1Router } from '../v1/authorize.ts';
import { billingProfileBody, billingProfileJson, billingProfileView } from './profile.schemas.ts';
import { dataEnvelope, errorEnvelope, sendData } from '../v1/envelope.ts';
import { principalOf } from '../v1/principal.ts';

const description =
  "Who the team's invoices and credit notes are made out to and where they are mailed. Each invoice keeps the details it was " +
  "taxed and finalized with (a credit note shows its invoice's): a change applies to invoices issued from then on. The country and " +
  "VAT id decide the tax when the platform's seller is in an EU country (BILLING_SELLER_COUNTRY): a team outside the EU is charged " +
  `0 % and its invoices say "${OUTSIDE_EU_NOTE}"; a team in another EU country with a VAT id is charged 0 % and its invoices say ` +
  `"${REVERSE_CHARGE_NOTE}"; otherwise (and always when the seller is not in the EU) the platform's rate applies. Text fields ` +
  'must not contain the NUL character (422 naming the field).';
const common = { tags: ['billing'], security: ['bearerAuth', 'sessionCookie'] as Array<'bearerAuth' | 'sessionCookie'>, description };
const forbidden = { description: 'AUTHORIZATION_ERROR: `details.permission` is missing', schema: errorEnvelope };

/** The team's billing profile (issue 15). */
export function billingProfileRoutes(ctx: Context) {
  return v1Router()
    .route(
      {
        ...common,
        method: 'get',
        path: '/billing/profile',
        operationId: 'billingProfile.get',
        summary: "The team's billing profile",
        permission: 'billing:read',
        responses: {
          200: { description: 'The profile; before one is given, every field null and `complete: false`', schema: dataEnvelope(billingProfileJson) },
          403: forbidden,
        },
      },
      async (req, res) => {
        sendData(req, res, billingProfileView(await findBillingProfile(ctx.db, principalOf(res).team_id)));
      },
    )
    .route(
      {
        ...common,
        method: 'put',
        path: '/billing/profile',
        operationId: 'billingProfile.replace',
        summary: "Give or replace the team's billing profile",
        permission: 'billing:manage',
        body: billingProfileBody,
        audit: { action: 'billing_profile.updated', target: 'billing_profile' },
        responses: {
          200: { description: 'The profile as stored (every field replaced: one left out is cleared)', schema: dataEnvelope(billingProfileJson) },
          403: forbidden,
          422: {
            description:
              "VALIDATION_ERROR: `details.fields` names each field that is not valid (a country that is not ISO 3166-1 alpha-2, a VAT id not of the country's format)",
            schema: errorEnvelope,
          },
        },
      },
      async (req, res) => {
        const body = parseOrFail(billingProfileBody, req.body);
        sendData(req, res, billingProfileView(await putBillingProfile(ctx.db, principalOf(res).team_id, body)));
      },
    );
}
