import type { Context } from '../../shared/context.ts';
import { createPlan, listPlans, updatePlan } from '../../shared/domains/billing/plans.ts';
import { z } from 'zod';
import { parseOrFail } from '../middleware/validate.ts';
import { v1Router } from '../v1/authorize.ts';
import { billingDescription, createPlanBody, planJson, planView, updatePlanBody } from './billing.schemas.ts';
import { dataEnvelope, errorEnvelope, sendData } from '../v1/envelope.ts';
import { pathIdOf } from '../v1/team-scope.ts';
import { rowId } from '../openapi/path-parameters.ts';

const common = { tags: ['billing'], security: ['bearerAuth', 'sessionCookie'] as Array<'bearerAuth' | 'sessionCookie'>, description: billingDescription };
const operatorOnly = {
  403: { description: "AUTHORIZATION_ERROR: an operator's API token (operator routes need a signed-in session)", schema: errorEnvelope },
  404: { description: 'NOT_FOUND: no such plan, or the caller is not an operator', schema: errorEnvelope },
};
const invalid = { description: 'VALIDATION_ERROR: `details.fields` names each field that is not valid', schema: errorEnvelope };

/** The plan catalogue (issue 15): teams read the active plans, operators manage them. */
export function billingPlansRoutes(ctx: Context) {
  return v1Router()
    .route(
      {
        ...common,
        method: 'get',
        path: '/billing/plans',
        operationId: 'plans.list',
        summary: 'The plans a team can choose',
        permission: 'billing:read',
        responses: {
          200: { description: 'Active plans, monthly then yearly, cheapest first', schema: dataEnvelope(z.array(planJson)) },
          403: { description: 'AUTHORIZATION_ERROR: `details.permission` is missing', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        sendData(req, res, (await listPlans(ctx.db, { includeInactive: false })).map(planView));
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: '/admin/billing/plans',
        operationId: 'plans.listAll',
        summary: 'Every plan, inactive ones too (operators)',
        operator: true,
        responses: { 200: { description: 'Monthly then yearly, cheapest first', schema: dataEnvelope(z.array(planJson)) }, ...operatorOnly },
      },
      async (req, res) => {
        sendData(req, res, (await listPlans(ctx.db, { includeInactive: true })).map(planView));
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: '/admin/billing/plans',
        operationId: 'plans.create',
        summary: 'Add a plan (operators)',
        operator: true,
        body: createPlanBody,
        audit: { action: 'plan.created', target: 'plan' },
        responses: {
          201: { description: 'The plan', schema: dataEnvelope(planJson) },
          ...operatorOnly,
          409: { description: 'CONFLICT: the code is taken (`details.reason: plan_code_taken`)', schema: errorEnvelope },
          422: invalid,
        },
      },
      async (req, res) => {
        const body = parseOrFail(createPlanBody, req.body);
        const plan = await createPlan(ctx.db, body);
        res.setHeader('Location', `${req.baseUrl}/admin/billing/plans/${plan.id}`);
        sendData(req, res, planView(plan), 201);
      },
    )
    .route(
      {
        ...common,
        method: 'patch',
        path: '/admin/billing/plans/:plan',
        params: { plan: rowId('plan') },
        operationId: 'plans.update',
        summary: 'Change a plan (operators)',
        operator: true,
        body: updatePlanBody,
        description:
          'Price changes apply to invoices made from now on (renewals included); limits reach subscribed teams at their next renewal (or when their subscription next becomes active). `active: false` withdraws the plan from sale; its subscriptions continue. The code never changes.',
        audit: { action: 'plan.updated', target: 'plan', targetParam: 'plan' },
        responses: { 200: { description: 'The plan as stored', schema: dataEnvelope(planJson) }, ...operatorOnly, 422: invalid },
      },
      async (req, res) => {
        const id = pathIdOf(req, 'plan', 'Plan');
        const body = parseOrFail(updatePlanBody, req.body);
        sendData(req, res, planView(await updatePlan(ctx.db, id, body)));
      },
    );
}
