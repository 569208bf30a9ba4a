import type { Request, Response } from 'express';
import type { Context } from '../../shared/context.ts';
import { decideConcurrentLogin, type ConcurrentLoginDecision } from '../../shared/domains/auth/concurrent/concurrent-login-decision.ts';
import { pendingConcurrentLogins } from '../../shared/domains/auth/concurrent/pending-concurrent-logins.ts';
import { decideLoginAlert, type LoginAlertDecision } from '../../shared/domains/auth/risk/login-alert-decision.ts';
import { requestOrigin } from '../middleware/request-origin.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { DocumentedRouter } from '../openapi/documented-router.ts';
import { authErrors } from './auth-responses.ts';
import { errorReply } from './auth.schemas.ts';
import { alertTokenBody, approvedReply, concurrentTokenBody, deniedReply, pendingConcurrentLoginsReply } from './login-risk.schemas.ts';
import { requireCsrf, requireSession, sessionOf } from './session-guard.ts';

const suspicious =
  "A sign-in (a session issued by `/session-exchange`) is suspicious when, compared with the user's login and refresh activity of " +
  'the last 90 days (activity of a sign-in whose alert is pending or denied does not count): its country is new, its network ' +
  '(/24 for IPv4, /48 for IPv6) is new, or reaching it from the previous located activity needs more than 1000 km/h (pairs under ' +
  '100 km are ignored). Country and coordinates come from the IP the server saw, through an offline GeoLite2 database, never from ' +
  "`session_info`; an address it cannot place (loopback, private, unknown) is judged by its network alone. A user's very first " +
  'sign-in is never suspicious. The alert e-mail carries one token (256 bits, stored hashed, single use, valid 24 hours from sending) ' +
  'in two links to panel pages, `/login/approve?token=` and `/login/deny?token=`; opening them changes nothing, the page POSTs the ' +
  'token here. An unknown, used or expired token answers 401 `not_authenticated`.';

const concurrent =
  'With the team setting `concurrent_sessions: approve` (the default; `allow` turns this off), `/session-exchange` while the user has ' +
  'a live session (not revoked, past its second factor, with an unexpired refresh token) on a device with another ' +
  '`device_fingerprint` answers 423 `{detail: {status: "pending", token}, code: "concurrent_login_pending"}`, e-mails the user, and ' +
  'lists the request in `GET /concurrent-login/requests`. Retrying the exchange with the same pre-auth token answers the same ' +
  'token while pending, succeeds once approved, answers 423 `concurrent_login_denied` once denied, and 401 after 10 minutes. The ' +
  "decision needs a live session of the same user, with CSRF: the token is useless to anyone else (another user's token, or an " +
  'unknown, decided or expired one, answers 404 `not_found` and changes nothing). The e-mailed link opens the panel page ' +
  '`/concurrent-login?token=`, which decides with the session of that browser.';

/** Suspicious-login decisions (spec part 4.4) and the concurrent-login approval the spec leaves open. */
export function loginRiskRoutes(ctx: Context): DocumentedRouter {
  const router = new DocumentedRouter();

  const decideAlert = (decision: LoginAlertDecision) => async (req: Request, res: Response) => {
    const { token } = parseOrFail(alertTokenBody, req.body);
    await decideLoginAlert(ctx, token, decision, requestOrigin(req));
    res.json({ status: decision });
  };
  const alertResponses = { ...authErrors.unauthenticated, ...authErrors.invalid };

  router.route(
    {
      method: 'post',
      path: '/login/approve',
      operationId: 'browserAuth.approveLogin',
      summary: 'Approve a suspicious sign-in with the alert token',
      description: `The sign-in's country and network count as known from now on. ${suspicious}`,
      tags: ['auth: login risk'],
      body: alertTokenBody,
      responses: { 200: { description: 'Approved', schema: approvedReply }, ...alertResponses },
    },
    decideAlert('approved'),
  );

  router.route(
    {
      method: 'post',
      path: '/login/deny',
      operationId: 'browserAuth.denyLogin',
      summary: 'Deny a suspicious sign-in with the alert token',
      description:
        'Ends every session born of that sign-in (its pre-auth token, its user) at once and e-mails the user a password reset link; ' +
        `its country and network stay unknown, so the next sign-in from there alerts again. ${suspicious}`,
      tags: ['auth: login risk'],
      body: alertTokenBody,
      responses: { 200: { description: 'Denied', schema: deniedReply }, ...alertResponses },
    },
    decideAlert('denied'),
  );

  const decideConcurrent = (decision: ConcurrentLoginDecision) => async (req: Request, res: Response) => {
    const { token } = parseOrFail(concurrentTokenBody, req.body);
    const session = sessionOf(res);
    await decideConcurrentLogin(ctx.db, { token, userId: session.userId, sessionId: session.sessionId, decision, origin: requestOrigin(req) });
    res.json({ status: decision });
  };
  const concurrentResponses = {
    ...authErrors.unauthenticated,
    ...authErrors.forbidden,
    404: { description: '`not_found`: no pending sign-in of this user has the token', schema: errorReply },
    ...authErrors.invalid,
  };

  for (const [decision, verb, reply] of [
    ['approved', 'approve', approvedReply],
    ['denied', 'deny', deniedReply],
  ] as const) {
    router.route(
      {
        method: 'post',
        path: `/concurrent-login/${verb}`,
        operationId: `browserAuth.${verb}ConcurrentLogin`,
        summary: `${verb === 'approve' ? 'Approve' : 'Deny'} a sign-in waiting for approval, from a live session`,
        description: concurrent,
        tags: ['auth: login risk'],
        security: ['sessionCookie'],
        csrf: true,
        body: concurrentTokenBody,
        responses: {
          200: {
            description:
              decision === 'approved' ? 'Approved: the retried exchange succeeds' : 'Denied: the retried exchange answers 423 `concurrent_login_denied`',
            schema: reply,
          },
          ...concurrentResponses,
        },
      },
      requireSession(ctx),
      requireCsrf(ctx),
      decideConcurrent(decision),
    );
  }

  router.route(
    {
      method: 'get',
      path: '/concurrent-login/requests',
      operationId: 'browserAuth.listConcurrentLoginRequests',
      summary: 'Sign-ins of this user waiting for approval',
      description: `Pending, unexpired requests, newest first: a live session polls this to be notified. ${concurrent}`,
      tags: ['auth: login risk'],
      security: ['sessionCookie'],
      responses: { 200: { description: 'Pending requests', schema: pendingConcurrentLoginsReply }, ...authErrors.unauthenticated },
    },
    requireSession(ctx),
    async (_req, res) => {
      res.json({ requests: await pendingConcurrentLogins(ctx.db, ctx.config.secrets.secretKey, sessionOf(res).userId) });
    },
  );

  return router;
}
