import type { Request } from 'express';
import type { Context } from '../../shared/context.ts';
import { apiTokenExpiry, createApiToken, findApiToken, listApiTokens, revokeApiToken } from '../../shared/domains/api-tokens/api-tokens.ts';
import { NotFound, PermissionDenied } from '../../shared/errors.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { v1Router } from '../v1/authorize.ts';
import { apiTokenIdParams, apiTokenJson, apiTokenReply, createApiTokenBody, createdApiTokenReply } from './api-tokens.schemas.ts';
import { dataEnvelope, errorEnvelope, listEnvelope, pageQuery, sendData, sendList } from '../v1/envelope.ts';
import { principalCovers, principalOf, type Principal } from '../v1/principal.ts';
import { rowId } from '../openapi/path-parameters.ts';

const errors = {
  401: { description: 'AUTHENTICATION_ERROR', schema: errorEnvelope },
  403: { description: 'AUTHORIZATION_ERROR: the permission in `details.permission` is missing', schema: errorEnvelope },
  404: { description: "NOT_FOUND: no live token with this id in the caller's team", schema: errorEnvelope },
  422: { description: 'VALIDATION_ERROR: `details.fields` names what failed', schema: errorEnvelope },
};

/** A path id that names nothing (not a positive 32-bit integer) answers like an unknown id. */
function tokenIdOf(req: Request): number {
  const parsed = apiTokenIdParams.safeParse(req.params);
  if (!parsed.success) throw new NotFound('API token not found');
  return parsed.data.id;
}

/** When the calling API token expires (a token it creates may not outlive it); null otherwise. */
async function callerTokenExpiry(ctx: Context, principal: Principal): Promise<Date | null> {
  return principal.apiTokenId === null ? null : apiTokenExpiry(ctx.db, principal.apiTokenId);
}

/**
 * API tokens of the caller's team (issue 4): every holder of `api_tokens:read` sees all of the team's
 * live tokens (never a secret), and `api_tokens:delete` revokes any of them. A token acts as its
 * creator with the grants it was given, and dies with its creator's membership.
 */
export function apiTokensRoutes(ctx: Context) {
  return v1Router()
    .route(
      {
        method: 'get',
        path: '/api-tokens',
        operationId: 'apiTokens.list',
        summary: "List the team's API tokens",
        description: "The team's tokens that are not revoked, newest first; expired ones stay listed until revoked. Never the secret.",
        tags: ['api tokens'],
        security: ['bearerAuth', 'sessionCookie'],
        permission: 'api_tokens:read',
        query: pageQuery,
        responses: { 200: { description: 'One page of tokens', schema: listEnvelope(apiTokenReply) }, 401: errors[401], 403: errors[403], 422: errors[422] },
      },
      async (req, res) => {
        const query = parseOrFail(pageQuery, req.query);
        const page = { page: query.page, pageSize: query.page_size };
        const { items, total } = await listApiTokens(ctx.db, principalOf(res).team_id, page);
        sendList(req, res, items.map(apiTokenJson), page, total);
      },
    )
    .route(
      {
        method: 'post',
        path: '/api-tokens',
        operationId: 'apiTokens.create',
        summary: 'Create an API token; its secret is in this answer only',
        description:
          "The token acts as the caller in the caller's team, limited to `permissions`, each of which the caller must hold " +
          "(else 403 with `details.permission`, the first one missing). Its creator's role is read on every request, so a role " +
          "change applies to the token at once. It dies with the creator's membership. An API token holding `api_tokens:create` " +
          'may create tokens, within its own grants and its own expiry.',
        tags: ['api tokens'],
        security: ['bearerAuth', 'sessionCookie'],
        permission: 'api_tokens:create',
        body: createApiTokenBody,
        audit: { action: 'api_token.created', target: 'api_token' },
        responses: {
          201: { description: 'The token, with its secret in `data.token`', schema: dataEnvelope(createdApiTokenReply) },
          401: errors[401],
          403: errors[403],
          422: errors[422],
        },
      },
      async (req, res) => {
        const principal = principalOf(res);
        const body = parseOrFail(createApiTokenBody, req.body);
        const notHeld = body.permissions.find((grant) => !principalCovers(principal, [grant]));
        if (notHeld !== undefined) throw new PermissionDenied(`Cannot grant what you do not hold: ${notHeld}`, notHeld);
        const { token, secret } = await createApiToken(ctx.db, {
          teamId: principal.team_id,
          userId: principal.user_id,
          name: body.name,
          permissions: body.permissions,
          expiresInDays: body.expires_in_days,
          notAfter: await callerTokenExpiry(ctx, principal),
        });
        // The secret is shown once: a replay of this request (same Idempotency-Key) answers without it.
        res.locals.idempotencyRedact = (body: { data: object }) => ({ ...body, data: { ...body.data, token: null } });
        sendData(req, res, { ...apiTokenJson(token), token: secret }, 201);
      },
    )
    .route(
      {
        method: 'get',
        path: '/api-tokens/:id',
        params: { id: rowId('API token') },
        operationId: 'apiTokens.get',
        summary: 'One API token of the team',
        tags: ['api tokens'],
        security: ['bearerAuth', 'sessionCookie'],
        permission: 'api_tokens:read',
        responses: {
          200: { description: 'The token, without its secret', schema: dataEnvelope(apiTokenReply) },
          401: errors[401],
          403: errors[403],
          404: errors[404],
        },
      },
      async (req, res) => {
        sendData(req, res, apiTokenJson(await findApiToken(ctx.db, principalOf(res).team_id, tokenIdOf(req))));
      },
    )
    .route(
      {
        method: 'delete',
        path: '/api-tokens/:id',
        params: { id: rowId('API token') },
        operationId: 'apiTokens.revoke',
        summary: 'Revoke an API token',
        description:
          "Effective at once: the token's next request answers 401. Answers the token with its `revoked_at`; a revoked token is no longer listed, and revoking it again answers 404.",
        tags: ['api tokens'],
        security: ['bearerAuth', 'sessionCookie'],
        permission: 'api_tokens:delete',
        audit: { action: 'api_token.revoked', target: 'api_token' },
        responses: { 200: { description: 'The revoked token', schema: dataEnvelope(apiTokenReply) }, 401: errors[401], 403: errors[403], 404: errors[404] },
      },
      async (req, res) => {
        sendData(req, res, apiTokenJson(await revokeApiToken(ctx.db, principalOf(res).team_id, tokenIdOf(req))));
      },
    );
}
