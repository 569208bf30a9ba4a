import type { Context } from '../../shared/context.ts';
import { listOwnSessions, revokeOtherSessions, revokeOwnSession } from '../../shared/domains/auth/own-sessions.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { v1Router } from '../v1/authorize.ts';
import { dataEnvelope, errorEnvelope, listEnvelope, pageQuery, sendData, sendList } from '../v1/envelope.ts';
import type { NextFunction, Request, Response } from 'express';
import { PermissionDenied } from '../../shared/errors.ts';
import { principalOf } from '../v1/principal.ts';
import { revokedSessionReply, revokedSessionsReply, sessionReply } from './sessions.schemas.ts';
import { uuid } from '../openapi/path-parameters.ts';

const tags = ['sessions'];
const security: Array<'bearerAuth' | 'sessionCookie'> = ['bearerAuth', 'sessionCookie'];
const unauthenticated = { description: 'AUTHENTICATION_ERROR', schema: errorEnvelope };
const csrfRefused = {
  description:
    'AUTHORIZATION_ERROR: `csrf_mismatch` (a cookie session without its CSRF header or from another origin), or an API token (`missing_permission`: tokens cannot end sign-in sessions)',
  schema: errorEnvelope,
};
const own = 'Your own sessions only, in every team you belong to; no permission is needed, but a signed-in caller (not an API token).';

const apiTokenRefused = { description: 'AUTHORIZATION_ERROR: API tokens cannot see or end sign-in sessions', schema: errorEnvelope };

/**
 * Sign-in sessions are managed by a signed-in person: an API token (a script, possibly leaked) can
 * neither list its creator's sessions nor sign them out.
 */
function requireSignIn(_req: Request, res: Response, next: NextFunction): void {
  if (principalOf(res).via === 'api_token') throw new PermissionDenied('API tokens cannot see or end sign-in sessions; sign in to manage them');
  next();
}

/** The caller's sign-in sessions (issue 4): see them, end one, end all but this one. */
export function sessionsRoutes(ctx: Context) {
  return v1Router()
    .route(
      {
        method: 'get',
        path: '/sessions',
        operationId: 'sessions.list',
        summary: 'List your live sessions',
        description:
          `${own} Live: not ended, and not past its refresh token's expiry (an API login's session lives as long as its access ` +
          'token). Most recently seen first; `last_seen_at` moves at most once a minute. A session still waiting for its second ' +
          'factor is listed too, so that a sign-in that got past your password can be seen and ended. `current` marks the session ' +
          'of this request.',
        tags,
        security,
        query: pageQuery,
        responses: {
          200: { description: 'One page of sessions', schema: listEnvelope(sessionReply) },
          401: unauthenticated,
          403: apiTokenRefused,
          422: { description: 'VALIDATION_ERROR: `page` or `page_size`', schema: errorEnvelope },
        },
      },
      requireSignIn,
      async (req, res) => {
        const query = parseOrFail(pageQuery, req.query);
        const page = { page: query.page, pageSize: query.page_size };
        const principal = principalOf(res);
        const { items, total } = await listOwnSessions(ctx.db, principal.user_id, principal.sessionId, page);
        sendList(req, res, items, page, total);
      },
    )
    .route(
      {
        method: 'delete',
        path: '/sessions/:id',
        params: { id: uuid('session') },
        operationId: 'sessions.revoke',
        summary: 'End one of your sessions',
        description:
          `${own} Effective at once: the session's access token answers 401 on its next request and its refresh token stops ` +
          "working. Ending the current session signs this caller out. Another user's session, an ended one or an unknown id: 404.",
        tags,
        security,
        audit: { action: 'session.revoked', target: 'session' },
        responses: {
          200: { description: 'The session ended', schema: dataEnvelope(revokedSessionReply) },
          401: unauthenticated,
          403: csrfRefused,
          404: { description: 'NOT_FOUND: none of your live sessions has this id', schema: errorEnvelope },
        },
      },
      requireSignIn,
      async (req, res) => {
        sendData(req, res, await revokeOwnSession(ctx, principalOf(res).user_id, String(req.params.id)));
      },
    )
    .route(
      {
        method: 'delete',
        path: '/sessions',
        operationId: 'sessions.revokeOthers',
        summary: 'End all your sessions but this one',
        description:
          `${own} Ends every session of yours in every team except the one making this request, at once. API tokens are not ` +
          'sessions and are untouched: revoke them with `DELETE /v1/api-tokens/{id}`.',
        tags,
        security,
        audit: { action: 'session.revoked_others', target: 'session' },
        responses: { 200: { description: 'How many sessions ended', schema: dataEnvelope(revokedSessionsReply) }, 401: unauthenticated, 403: csrfRefused },
      },
      requireSignIn,
      async (req, res) => {
        const principal = principalOf(res);
        sendData(req, res, { revoked: await revokeOtherSessions(ctx, principal.user_id, principal.sessionId) });
      },
    );
}
