import { z } from 'zod';
import type { Request, Response, NextFunction } from 'express';
import type { Context } from '../../shared/context.ts';
import { loadCurrentUser } from '../../shared/domains/auth/current-user.ts';
import { recordLoginActivity } from '../../shared/domains/auth/login-activity.ts';
import { startLogin } from '../../shared/domains/auth/login.ts';
import { exchangePreAuthToken } from '../../shared/domains/auth/session-exchange.ts';
import { findSessionByRefreshToken, revokeSessions, rotateRefreshToken } from '../../shared/domains/auth/sessions.ts';
import { NotAuthenticated } from '../../shared/errors.ts';
import { recordActivity } from '../../shared/domains/activity/record-activity.ts';
import { readCookie } from '../middleware/cookies.ts';
import { rateLimitPerIp } from '../middleware/rate-limit.ts';
import { clientIp } from '../middleware/request-context.ts';
import { requestOrigin } from '../middleware/request-origin.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { DocumentedRouter } from '../openapi/documented-router.ts';
import { authErrors } from './auth-responses.ts';
import {
  concurrentPendingReply,
  currentUserReply,
  errorReply,
  loginBody,
  loginReply,
  messageReply,
  refreshReply,
  sessionExchangeBody,
  unverifiedEmailReply,
} from './auth.schemas.ts';
import { ACCESS_COOKIE, CSRF_COOKIE, REFRESH_COOKIE, clearSessionCookies, issueSessionCookies, type CookiePolicy } from './session-cookies.ts';
import { requireCsrf, requireSession, sessionOf } from './session-guard.ts';

/** Sign-in and the session's life: spec parts 4.1 (GET /me) and 4.2. */
export function sessionRoutes(ctx: Context, cookies: CookiePolicy): DocumentedRouter {
  const router = new DocumentedRouter();

  router.route(
    {
      method: 'post',
      path: '/login',
      operationId: 'browserAuth.login',
      summary: 'Step 1: check the credentials',
      description:
        'Answers a pre-auth token (36 random bytes, base64url; stored hashed; valid 10 minutes; bound to the user; used once by ' +
        "`/session-exchange`) and the user's teams. An unknown e-mail and a wrong password give the same 401 in about the same time. " +
        'E-mails are compared lower-cased and NFKC-normalised. `remember_me` makes the refresh cookie last 7 days instead of 1.',
      tags: ['auth: sign-in'],
      body: loginBody,
      rateLimited: true,
      responses: {
        200: { description: 'Credentials accepted', schema: loginReply },
        401: authErrors.unauthenticated[401],
        413: authErrors.invalid[413],
        422: { description: '`validation_error`; with `email` when the address must be verified first', schema: z.union([unverifiedEmailReply, errorReply]) },
        ...authErrors.limited,
      },
    },
    rateLimitPerIp(ctx.rateLimit, 'login', ctx.config.rateLimits.login),
    async (req, res) => {
      const body = parseOrFail(loginBody, req.body);
      const { preAuthToken, teams } = await startLogin(ctx.db, {
        email: body.email,
        password: body.password,
        rememberMe: body.remember_me,
        ip: clientIp(req),
        userAgent: req.get('user-agent') ?? null,
      });
      res.json({ pre_auth_token: preAuthToken, teams });
    },
  );

  router.route(
    {
      method: 'post',
      path: '/session-exchange',
      operationId: 'browserAuth.exchangeSession',
      summary: 'Step 2: open a session in a team',
      description:
        'Consumes the pre-auth token and sets `svc_access` (EdDSA JWT, 6 h, HttpOnly), `svc_refresh` (opaque, 7 d or 1 d, HttpOnly) and ' +
        "`svc_csrf` (readable by scripts), all `Path=/; SameSite=Lax`, `Secure` in production. `team_id` must be one of the user's " +
        'ACTIVE teams, else 403 `missing_permission` and the token stays usable. The IP recorded is the one the server saw; ' +
        "`session_info.ip` and `geo` are kept as the client's own statement.",
      tags: ['auth: sign-in'],
      body: sessionExchangeBody,
      responses: {
        200: { description: 'Signed in; the three cookies are set', schema: currentUserReply },
        ...authErrors.unauthenticated,
        403: {
          description: '`missing_permission` (not an active member of the team) or `device_approval_required` (unknown device: see /device/challenge)',
          schema: errorReply,
        },
        423: {
          description: '`concurrent_login_pending` (retry after approval) or `concurrent_login_denied`',
          schema: z.union([concurrentPendingReply, errorReply]),
        },
        ...authErrors.invalid,
      },
    },
    async (req, res) => {
      const body = parseOrFail(sessionExchangeBody, req.body);
      const issued = await exchangePreAuthToken(ctx, {
        preAuthToken: body.pre_auth_token,
        teamId: body.team_id,
        sessionInfo: body.session_info,
        ip: clientIp(req),
        userAgent: req.get('user-agent') ?? null,
        requestId: req.id,
      });
      issueSessionCookies(res, cookies, { ...issued, rememberMe: issued.session.remember_me });
      res.json(issued.currentUser);
    },
  );

  router.route(
    {
      method: 'post',
      path: '/refresh',
      operationId: 'browserAuth.refresh',
      summary: 'Rotate the refresh token and mint a new access token',
      description:
        'Every refresh rotates `svc_refresh`. Presenting a token that was already rotated is treated as theft: the whole session ' +
        '(the token family) is revoked, its access token included. Of parallel refreshes of one token at most one succeeds.',
      tags: ['auth: sign-in'],
      security: ['refreshCookie'],
      csrf: true,
      responses: { 200: { description: 'Rotated; cookies set again', schema: refreshReply }, ...authErrors.unauthenticated, ...authErrors.forbidden },
    },
    // The refresh cookie is checked before CSRF, so a client without a session learns it is signed out.
    (req: Request, _res: Response, next: NextFunction) => {
      if (!readCookie(req, REFRESH_COOKIE)) throw new NotAuthenticated('Refresh token missing');
      next();
    },
    requireCsrf(ctx),
    async (req, res) => {
      const { session, refreshToken } = await rotateRefreshToken(ctx, readCookie(req, REFRESH_COOKIE)!, requestOrigin(req));
      await loadCurrentUser(ctx.db, session.user_id, session.team_id); // a removed member cannot refresh
      const accessToken = await ctx.accessTokens.sign({ userId: session.user_id, teamId: session.team_id, sessionId: session.id });
      await recordLoginActivity(ctx.db, {
        userId: session.user_id,
        sessionId: session.id,
        eventType: 'refresh',
        ip: clientIp(req),
        userAgent: req.get('user-agent') ?? null,
        deviceFingerprint: session.device_fingerprint,
        geo: null,
      });
      issueSessionCookies(res, cookies, { accessToken, refreshToken, csrfToken: readCookie(req, CSRF_COOKIE)!, rememberMe: session.remember_me });
      res.json({ access_token: accessToken, refresh_token: refreshToken });
    },
  );

  router.route(
    {
      method: 'post',
      path: '/logout',
      operationId: 'browserAuth.logout',
      summary: 'End the session',
      description:
        'Revokes the session at once (its access token stops working on the next request) and clears the three cookies. ' +
        'With an expired access cookie the refresh cookie identifies the session.',
      tags: ['auth: sign-in'],
      security: ['sessionCookie', 'refreshCookie'],
      csrf: true,
      responses: { 200: { description: 'Logged out', schema: messageReply }, ...authErrors.unauthenticated, ...authErrors.forbidden },
    },
    async (req, res, next) => {
      const refresh = readCookie(req, REFRESH_COOKIE);
      if (!readCookie(req, ACCESS_COOKIE) && refresh) {
        const session = await findSessionByRefreshToken(ctx.db, refresh);
        if (!session) throw new NotAuthenticated('Not authenticated');
        res.locals.session = { userId: session.user_id, teamId: session.team_id, sessionId: session.id };
        return next();
      }
      return requireSession(ctx, { allowPendingSecondFactor: true })(req, res, next);
    },
    requireCsrf(ctx),
    async (req, res) => {
      const session = sessionOf(res);
      await revokeSessions(ctx, { ids: [session.sessionId] }, 'logout');
      const entry = {
        actor: { userId: session.userId, via: 'session' as const },
        action: 'auth.logout',
        target: { type: 'session', id: session.sessionId },
        origin: requestOrigin(req),
      };
      // The session is already ended: a trail that cannot be written is logged, not a failed logout.
      await recordActivity(ctx.db, { ...entry, teamId: session.teamId }).catch((error: unknown) =>
        req.log.error({ err: (error as Error).message }, 'logout not recorded in the activity trail'),
      );
      clearSessionCookies(res, cookies);
      res.json({ message: 'Logged out' });
    },
  );

  router.route(
    {
      method: 'get',
      path: '/me',
      operationId: 'browserAuth.me',
      summary: "The signed-in user in the session's team",
      description: "The user of the session cookie, with the team the session is in and the user's role there. 401 without a valid session.",
      tags: ['auth: sign-in'],
      security: ['sessionCookie'],
      responses: { 200: { description: 'Current user', schema: currentUserReply }, ...authErrors.unauthenticated },
    },
    requireSession(ctx),
    async (_req, res) => {
      const session = sessionOf(res);
      res.json(await loadCurrentUser(ctx.db, session.userId, session.teamId));
    },
  );

  return router;
}
