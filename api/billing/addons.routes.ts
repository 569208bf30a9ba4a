import type { Context } from '../../shared/context.ts';
import { createAddon, findAddon, listAddons, updateAddon } from '../../shared/domains/billing/addons.ts';
import { z } from 'zod';
import { parseOrFail } from '../middleware/validate.ts';
import { v1Router } from '../v1/authorize.ts';
import { addonJson, addonsDescription, addonView, createAddonBody, updateAddonBody } from './addons.schemas.ts';
import { dataEnvelope, errorEnvelope, sendData } from '../v1/envelope.ts';
import { pathIdOf } from '../v1/team-scope.ts';
import { rowId } from '../openapi/path-parameters.ts';

const common = { tags: ['billing'], security: ['bearerAuth', 'sessionCookie'] as Array<'bearerAuth' | 'sessionCookie'>, description: addonsDescription };
const operatorOnly = {
  403: { description: "AUTHORIZATION_ERROR: an operator's API token (operator routes need a signed-in session)", schema: errorEnvelope },
  404: { description: 'NOT_FOUND: no such add-on, or the caller is not an operator', schema: errorEnvelope },
};
const invalid = {
  description: 'VALIDATION_ERROR: `details.fields` names each field that is not valid (all four `extra_*` when none is positive)',
  schema: errorEnvelope,
};

/** The add-on catalogue (issue 15): teams read the active add-ons, operators manage them, as for plans. */
export function billingAddonsRoutes(ctx: Context) {
  return v1Router()
    .route(
      {
        ...common,
        method: 'get',
        path: '/billing/addons',
        operationId: 'addons.list',
        summary: 'The add-ons a team can buy',
        permission: 'billing:read',
        responses: {
          200: {
            description: 'Active add-ons, monthly then yearly, cheapest first; one fits a plan of its currency and interval',
            schema: dataEnvelope(z.array(addonJson)),
          },
          403: { description: 'AUTHORIZATION_ERROR: `details.permission` is missing', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        sendData(req, res, (await listAddons(ctx.db, { includeInactive: false })).map(addonView));
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: '/admin/billing/addons',
        operationId: 'addons.listAll',
        summary: 'Every add-on, inactive ones too (operators)',
        operator: true,
        responses: { 200: { description: 'Monthly then yearly, cheapest first', schema: dataEnvelope(z.array(addonJson)) }, ...operatorOnly },
      },
      async (req, res) => {
        sendData(req, res, (await listAddons(ctx.db, { includeInactive: true })).map(addonView));
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: '/admin/billing/addons',
        operationId: 'addons.create',
        summary: 'Add an add-on (operators)',
        operator: true,
        body: createAddonBody,
        audit: { action: 'addon.created', target: 'addon' },
        responses: {
          201: { description: 'The add-on', schema: dataEnvelope(addonJson) },
          ...operatorOnly,
          409: { description: 'CONFLICT: the code is taken (`details.reason: addon_code_taken`)', schema: errorEnvelope },
          422: invalid,
        },
      },
      async (req, res) => {
        const addon = await createAddon(ctx.db, parseOrFail(createAddonBody, req.body));
        res.setHeader('Location', `${req.baseUrl}/admin/billing/addons/${addon.id}`);
        sendData(req, res, addonView(addon), 201);
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: '/admin/billing/addons/:addon',
        params: { addon: rowId('add-on') },
        operationId: 'addons.get',
        summary: 'One add-on (operators)',
        operator: true,
        responses: { 200: { description: 'The add-on', schema: dataEnvelope(addonJson) }, ...operatorOnly },
      },
      async (req, res) => {
        sendData(req, res, addonView(await findAddon(ctx.db, pathIdOf(req, 'addon', 'Add-on'))));
      },
    )
    .route(
      {
        ...common,
        method: 'patch',
        path: '/admin/billing/addons/:addon',
        params: { addon: rowId('add-on') },
        operationId: 'addons.update',
        summary: 'Change an add-on (operators)',
        operator: true,
        body: updateAddonBody,
        description:
          'Price changes apply to invoices made from now on (renewals and increases); what a unit adds reaches the teams holding it at ' +
          'their next renewal or add-on change. `active: false` withdraws it from sale: teams holding it keep it (and may decrease it), ' +
          'none can buy more. Add-ons are not deleted (teams may hold them), only withdrawn. The code, currency and interval never change.',
        audit: { action: 'addon.updated', target: 'addon', targetParam: 'addon' },
        responses: { 200: { description: 'The add-on as stored', schema: dataEnvelope(addonJson) }, ...operatorOnly, 422: invalid },
      },
      async (req, res) => {
        const id = pathIdOf(req, 'addon', 'Add-on');
        sendData(req, res, addonView(await updateAddon(ctx.db, id, parseOrFail(updateAddonBody, req.body))));
      },
    );
}
