import type { Context } from '../../shared/context.ts';
import {
  cancelOperation,
  findOperation,
  isPlatformOperation,
  listOperations,
  listOperationSteps,
  type OperationScope,
} from '../../shared/domains/operations/operations.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { v1Router } from '../v1/authorize.ts';
import { dataEnvelope, errorEnvelope, listEnvelope, pageQuery, sendData, sendList } from '../v1/envelope.ts';
import { operationDetailJson, operationDetailView, operationJson, operationsQuery, operationView } from './operations.schemas.ts';
import { actsAsOperator, principalOf, type Principal } from '../v1/principal.ts';
import { uuid } from '../openapi/path-parameters.ts';
import { createWaitingProbe } from '../../shared/domains/operations/operation-waiting.ts';

const notFound = {
  description: "NOT_FOUND: no operation with this id in the caller's team (nor, for an operator, among the platform's)",
  schema: errorEnvelope,
};
const forbidden = { description: 'AUTHORIZATION_ERROR: `details.permission` is missing', schema: errorEnvelope };

/**
 * Where an operation id is looked up: the caller's team; for an operator signed in with a session,
 * also the platform's own operations (team_id null: node enrollment). Other teams' stay not found.
 */
export async function scopeFor(ctx: Context, principal: Principal, id: string): Promise<OperationScope> {
  if (actsAsOperator(principal) && (await isPlatformOperation(ctx.db, id))) return { platform: true };
  return { teamId: principal.team_id };
}

/** Long work of the caller's team (ARCHITECTURE "A long operation, end to end"). */
export function operationsRoutes(ctx: Context) {
  return v1Router()
    .route(
      {
        method: 'get',
        path: '/operations',
        operationId: 'operations.list',
        summary: "List the team's operations, newest first",
        tags: ['operations'],
        security: ['bearerAuth', 'sessionCookie'],
        permission: 'operations:read',
        query: pageQuery.extend(operationsQuery.shape),
        responses: { 200: { description: 'One page of operations (without their logs)', schema: listEnvelope(operationJson) }, 403: forbidden },
      },
      async (req, res) => {
        const query = parseOrFail(pageQuery.extend(operationsQuery.shape), req.query);
        const page = { page: query.page, pageSize: query.page_size };
        const { operations, steps, total } = await listOperations(
          ctx.db,
          { teamId: principalOf(res).team_id },
          { status: query.status, kind: query.kind, targetType: query.target_type, targetId: query.target_id },
          page,
        );
        const probe = createWaitingProbe(ctx);
        const waiting = await Promise.all(operations.map((operation) => probe.of(operation)));
        sendList(
          req,
          res,
          operations.map((operation, index) =>
            operationView(
              operation,
              steps.filter((step) => step.operation_id === operation.id),
              waiting[index],
            ),
          ),
          page,
          total,
        );
      },
    )
    .route(
      {
        method: 'get',
        path: '/operations/:id',
        params: { id: uuid('operation') },
        operationId: 'operations.get',
        summary: 'One operation: status, progress, steps, the last log lines and, on failure, what failed',
        tags: ['operations'],
        security: ['bearerAuth', 'sessionCookie'],
        permission: 'operations:read',
        responses: { 200: { description: 'The operation', schema: dataEnvelope(operationDetailJson) }, 403: forbidden, 404: notFound },
      },
      async (req, res) => {
        const id = String(req.params.id);
        const { operation, steps, logs } = await findOperation(ctx.db, await scopeFor(ctx, principalOf(res), id), id);
        sendData(req, res, operationDetailView(operation, steps, logs, await createWaitingProbe(ctx).of(operation)));
      },
    )
    .route(
      {
        method: 'post',
        path: '/operations/:id/cancel',
        params: { id: uuid('operation') },
        operationId: 'operations.cancel',
        summary: 'Cancel an operation',
        description:
          'A queued operation is cancelled at once. A running one stops before its next step when the step it is in is `cancellable` ' +
          '(the answer shows `cancel_requested_at`; the status turns `cancelled` when it stops); otherwise, and for a finished ' +
          'operation, 409 CONFLICT. Work a step already did is not undone.',
        tags: ['operations'],
        security: ['bearerAuth', 'sessionCookie'],
        permission: 'operations:cancel',
        audit: { action: 'operation.cancel_requested', target: 'operation' },
        responses: {
          200: { description: 'Cancelled, or cancellation requested', schema: dataEnvelope(operationJson) },
          403: forbidden,
          404: notFound,
          409: { description: 'CONFLICT: finished already, or the running step cannot be interrupted', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const id = String(req.params.id);
        const operation = await cancelOperation(ctx, await scopeFor(ctx, principalOf(res), id), id);
        sendData(req, res, operationView(operation, await listOperationSteps(ctx.db, operation.id)));
      },
    );
}
