import { Router } from 'express';
import type { Context } from '../../shared/context.ts';
import { loadCurrentUser } from '../../shared/domains/auth/current-user.ts';
import { recordLoginActivity } from '../../shared/domains/auth/login-activity.ts';
import { startLogin } from '../../shared/domains/auth/login.ts';
import { exchangePreAuthToken } from '../../shared/domains/auth/session-exchange.ts';
import { findSessionByRefreshToken, revokeSessions, rotateRefreshToken } from '../../shared/domains/auth/sessions.ts';
import { NotAuthenticated } from '../../shared/errors.ts';
import { readCookie } from '../middleware/cookies.ts';
import { rateLimitPerIp } from '../middleware/rate-limit.ts';
import { clientIp } from '../middleware/request-context.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { loginBody, sessionExchangeBody } from './auth.schemas.ts';
import { ACCESS_COOKIE, CSRF_COOKIE, REFRESH_COOKIE, clearSessionCookies, issueSessionCookies, type CookiePolicy } from './session-cookies.ts';
import { requireCsrf, requireSession, sessionOf } from './session-guard.ts';

/** Sign-in and the session's life: spec parts 4.1 (GET /me) and 4.2. */
export function sessionRoutes(ctx: Context, cookies: CookiePolicy): Router {
  const router = Router();

  router.post('/login', rateLimitPerIp(ctx.rateLimit, 'login', ctx.config.rateLimits.login), async (req, res) => {
    const body = parseOrFail(loginBody, req.body);
    const { preAuthToken, teams } = await startLogin(ctx.db, {
      email: body.email,
      password: body.password,
      rememberMe: body.remember_me,
      ip: clientIp(req),
      userAgent: req.get('user-agent') ?? null,
    });
    res.json({ pre_auth_token: preAuthToken, teams });
  });

  router.post('/session-exchange', async (req, res) => {
    const body = parseOrFail(sessionExchangeBody, req.body);
    const issued = await exchangePreAuthToken(ctx, {
      preAuthToken: body.pre_auth_token,
      teamId: body.team_id,
      sessionInfo: body.session_info,
      ip: clientIp(req),
      userAgent: req.get('user-agent') ?? null,
    });
    issueSessionCookies(res, cookies, { ...issued, rememberMe: issued.session.remember_me });
    res.json(issued.currentUser);
  });

  // The refresh cookie is checked before CSRF, so a client without a session learns it is signed out.
  router.post(
    '/refresh',
    (req, _res, next) => {
      if (!readCookie(req, REFRESH_COOKIE)) throw new NotAuthenticated('Refresh token missing');
      next();
    },
    requireCsrf(ctx),
    async (req, res) => {
      const { session, refreshToken } = await rotateRefreshToken(ctx, readCookie(req, REFRESH_COOKIE)!);
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

  // An expired access cookie must not trap a user in a session: the refresh cookie identifies it too.
  router.post(
    '/logout',
    async (req, res, next) => {
      const refresh = readCookie(req, REFRESH_COOKIE);
      if (!readCookie(req, ACCESS_COOKIE) && refresh) {
        const session = await findSessionByRefreshToken(ctx.db, refresh);
        if (!session) throw new NotAuthenticated('Not authenticated');
        res.locals.session = { userId: session.user_id, teamId: session.team_id, sessionId: session.id };
        return next();
      }
      return requireSession(ctx)(req, res, next);
    },
    requireCsrf(ctx),
    async (_req, res) => {
      await revokeSessions(ctx, { ids: [sessionOf(res).sessionId] }, 'logout');
      clearSessionCookies(res, cookies);
      res.json({ message: 'Logged out' });
    },
  );

  router.get('/me', requireSession(ctx), async (_req, res) => {
    const session = sessionOf(res);
    res.json(await loadCurrentUser(ctx.db, session.userId, session.teamId));
  });

  return router;
}
