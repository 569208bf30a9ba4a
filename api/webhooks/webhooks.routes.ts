import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Context } from '../../shared/context.ts';
import { findDelivery, listDeliveries, redeliver, sendTestEvent } from '../../shared/domains/webhooks/deliveries.ts';
import {
  createEndpoint,
  DEFAULT_ROTATION_OVERLAP_SECONDS,
  deleteEndpoint,
  endpointSecret,
  findEndpoint,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
} from '../../shared/domains/webhooks/endpoints.ts';
import { EVENT_TYPE_NAMES, EVENT_TYPES } from '../../shared/domains/webhooks/event-catalogue.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { v1Router } from '../v1/authorize.ts';
import { dataEnvelope, errorEnvelope, listEnvelope, pageQuery, sendData, sendList } from '../v1/envelope.ts';
import { principalOf } from '../v1/principal.ts';
import { pathIdOf } from '../v1/team-scope.ts';
import {
  attemptView,
  createEndpointBody,
  deliveriesQuery,
  deliveryDetailJson,
  deliveryJson,
  deliveryView,
  endpointJson,
  endpointView,
  endpointWithSecretJson,
  eventTypeJson,
  rotateSecretBody,
  updateEndpointBody,
  webhooksDescription,
} from './webhooks.schemas.ts';
import { rowId, uuid } from '../openapi/path-parameters.ts';

const common = { tags: ['webhooks'], security: ['bearerAuth', 'sessionCookie'] as Array<'bearerAuth' | 'sessionCookie'>, description: webhooksDescription };
const forbidden = { description: 'AUTHORIZATION_ERROR: `details.permission` is missing', schema: errorEnvelope };
const notFound = { description: "NOT_FOUND: no such endpoint in the caller's team (or no such delivery of it)", schema: errorEnvelope };
const invalid = {
  description: 'VALIDATION_ERROR: `details.fields` names each field that is not valid (an internal or non-http URL, an unknown event type)',
  schema: errorEnvelope,
};
const disabled = { description: 'CONFLICT: the endpoint is disabled', schema: errorEnvelope };
const endpointPath = '/webhooks/:webhook';
const deliveryPath = `${endpointPath}/deliveries/:delivery`;

/** Webhook endpoints, their secrets and their delivery logs (issue 14). */
export function webhooksRoutes(ctx: Context) {
  const settings = { secretKey: ctx.config.secrets.secretKey, allowPrivateTargets: ctx.config.webhooks.allowPrivateTargets };
  const teamOf = (res: Response) => principalOf(res).team_id;
  const endpointIdOf = (req: Request) => pathIdOf(req, 'webhook', 'Webhook endpoint');

  return v1Router()
    .route(
      {
        ...common,
        method: 'get',
        path: '/webhooks/event-types',
        operationId: 'webhooks.listEventTypes',
        summary: 'Every event type an endpoint can receive',
        permission: 'webhooks:read',
        responses: { 200: { description: 'By name', schema: dataEnvelope(z.array(eventTypeJson)) }, 403: forbidden },
      },
      async (req, res) => {
        sendData(
          req,
          res,
          EVENT_TYPE_NAMES.map((type) => ({ type, description: EVENT_TYPES[type]!.description })),
        );
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: '/webhooks',
        operationId: 'webhooks.list',
        summary: "The team's webhook endpoints",
        permission: 'webhooks:read',
        query: pageQuery,
        responses: { 200: { description: 'Oldest first', schema: listEnvelope(endpointJson) }, 403: forbidden },
      },
      async (req, res) => {
        const query = parseOrFail(pageQuery, req.query);
        const page = { page: query.page, pageSize: query.page_size };
        const { rows, total } = await listEndpoints(ctx.db, teamOf(res), page);
        sendList(req, res, rows.map(endpointView), page, total);
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: '/webhooks',
        operationId: 'webhooks.create',
        summary: 'Add a webhook endpoint',
        body: createEndpointBody,
        permission: 'webhooks:manage',
        audit: { action: 'webhook.created', target: 'webhook' },
        responses: {
          201: { description: 'The endpoint with its signing secret (also readable later at `GET …/secret`)', schema: dataEnvelope(endpointWithSecretJson) },
          403: forbidden,
          409: { description: 'CONFLICT: the team has its most endpoints', schema: errorEnvelope },
          422: invalid,
        },
      },
      async (req, res) => {
        const body = parseOrFail(createEndpointBody, req.body);
        const principal = principalOf(res);
        const { endpoint, secret } = await createEndpoint(ctx.db, settings, { teamId: principal.team_id, userId: principal.user_id }, body);
        res.setHeader('Location', `${req.baseUrl}/webhooks/${endpoint.id}`);
        sendData(req, res, { ...endpointView(endpoint), secret }, 201);
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: endpointPath,
        params: { webhook: rowId('webhook endpoint') },
        operationId: 'webhooks.get',
        summary: 'One webhook endpoint',
        permission: 'webhooks:read',
        responses: { 200: { description: 'The endpoint', schema: dataEnvelope(endpointJson) }, 403: forbidden, 404: notFound },
      },
      async (req, res) => {
        sendData(req, res, endpointView(await findEndpoint(ctx.db, teamOf(res), endpointIdOf(req))));
      },
    )
    .route(
      {
        ...common,
        method: 'patch',
        path: endpointPath,
        params: { webhook: rowId('webhook endpoint') },
        operationId: 'webhooks.update',
        summary: 'Change, disable or enable a webhook endpoint',
        body: updateEndpointBody,
        permission: 'webhooks:manage',
        audit: { action: 'webhook.updated', target: 'webhook' },
        responses: { 200: { description: 'The endpoint', schema: dataEnvelope(endpointJson) }, 403: forbidden, 404: notFound, 422: invalid },
      },
      async (req, res) => {
        const body = parseOrFail(updateEndpointBody, req.body);
        sendData(req, res, endpointView(await updateEndpoint(ctx.db, settings, teamOf(res), endpointIdOf(req), body)));
      },
    )
    .route(
      {
        ...common,
        method: 'delete',
        path: endpointPath,
        params: { webhook: rowId('webhook endpoint') },
        operationId: 'webhooks.delete',
        summary: 'Remove a webhook endpoint and its delivery log',
        permission: 'webhooks:manage',
        audit: { action: 'webhook.deleted', target: 'webhook' },
        responses: { 204: { description: 'Removed' }, 403: forbidden, 404: notFound },
      },
      async (req, res) => {
        await deleteEndpoint(ctx.db, teamOf(res), endpointIdOf(req));
        res.status(204).end();
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: `${endpointPath}/secret`,
        params: { webhook: rowId('webhook endpoint') },
        operationId: 'webhooks.getSecret',
        summary: "The endpoint's signing secret",
        permission: 'webhooks:manage',
        responses: { 200: { description: 'The current secret', schema: dataEnvelope(z.object({ secret: z.string() })) }, 403: forbidden, 404: notFound },
      },
      async (req, res) => {
        sendData(req, res, { secret: endpointSecret(settings, await findEndpoint(ctx.db, teamOf(res), endpointIdOf(req))) });
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: `${endpointPath}/rotate-secret`,
        params: { webhook: rowId('webhook endpoint') },
        operationId: 'webhooks.rotateSecret',
        summary: 'Replace the signing secret',
        body: rotateSecretBody,
        bodyOptional: true,
        permission: 'webhooks:manage',
        audit: { action: 'webhook.secret_rotated', target: 'webhook' },
        responses: {
          200: {
            description: 'The endpoint with its new secret; the old one signs beside it until `previous_secret_expires_at`',
            schema: dataEnvelope(endpointWithSecretJson),
          },
          403: forbidden,
          404: notFound,
          422: invalid,
        },
      },
      async (req, res) => {
        const body = parseOrFail(rotateSecretBody, req.body ?? {});
        const { endpoint, secret } = await rotateSecret(
          ctx.db,
          settings,
          teamOf(res),
          endpointIdOf(req),
          body.expire_previous_in_seconds ?? DEFAULT_ROTATION_OVERLAP_SECONDS,
        );
        sendData(req, res, { ...endpointView(endpoint), secret });
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: `${endpointPath}/test`,
        params: { webhook: rowId('webhook endpoint') },
        operationId: 'webhooks.sendTest',
        summary: 'Send a test event to the endpoint',
        permission: 'webhooks:manage',
        audit: { action: 'webhook.tested', target: 'webhook' },
        responses: {
          202: { description: 'The delivery of a `webhook.test` event, sent within a second', schema: dataEnvelope(deliveryJson) },
          403: forbidden,
          404: notFound,
          409: disabled,
        },
      },
      async (req, res) => {
        sendData(req, res, deliveryView(await sendTestEvent(ctx.db, teamOf(res), endpointIdOf(req))), 202);
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: `${endpointPath}/deliveries`,
        params: { webhook: rowId('webhook endpoint') },
        operationId: 'webhookDeliveries.list',
        summary: "The endpoint's deliveries",
        permission: 'webhooks:read',
        query: deliveriesQuery,
        responses: { 200: { description: 'Newest first', schema: listEnvelope(deliveryJson) }, 403: forbidden, 404: notFound },
      },
      async (req, res) => {
        const query = parseOrFail(deliveriesQuery, req.query);
        const page = { page: query.page, pageSize: query.page_size };
        const { rows, total } = await listDeliveries(ctx.db, teamOf(res), endpointIdOf(req), { status: query.status, eventType: query.event_type }, page);
        sendList(req, res, rows.map(deliveryView), page, total);
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: deliveryPath,
        params: { webhook: rowId('webhook endpoint'), delivery: uuid('delivery') },
        operationId: 'webhookDeliveries.get',
        summary: 'One delivery with its attempts',
        permission: 'webhooks:read',
        responses: {
          200: { description: "The delivery, each attempt's request and answer (excerpts)", schema: dataEnvelope(deliveryDetailJson) },
          403: forbidden,
          404: notFound,
        },
      },
      async (req, res) => {
        const { delivery, attempts } = await findDelivery(ctx.db, teamOf(res), endpointIdOf(req), String(req.params.delivery));
        sendData(req, res, { ...deliveryView(delivery), attempts_log: attempts.map(attemptView) });
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: `${deliveryPath}/redeliver`,
        params: { webhook: rowId('webhook endpoint'), delivery: uuid('delivery') },
        operationId: 'webhookDeliveries.redeliver',
        summary: "Send a delivery's event again",
        permission: 'webhooks:manage',
        audit: { action: 'webhook.redelivered', target: 'webhook', targetParam: 'webhook' },
        responses: {
          202: { description: 'The new delivery (same event id and body), sent within a second', schema: dataEnvelope(deliveryJson) },
          403: forbidden,
          404: notFound,
          409: disabled,
        },
      },
      async (req, res) => {
        sendData(req, res, deliveryView(await redeliver(ctx.db, teamOf(res), endpointIdOf(req), String(req.params.delivery))), 202);
      },
    );
}
