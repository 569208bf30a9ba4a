import type { NextFunction, Request, Response } from 'express';
import type { AccessClaims } from '../../shared/crypto/access-tokens.ts';
import { safeEqual } from '../../shared/crypto/tokens.ts';
import { sessionState } from '../../shared/domains/auth/sessions.ts';
import { touchSession } from '../../shared/domains/auth/session-last-seen.ts';
import { CsrfMismatch, NotAuthenticated, TotpRequired } from '../../shared/errors.ts';
import type { Context } from '../../shared/context.ts';
import { readCookie } from '../middleware/cookies.ts';
import { ACCESS_COOKIE, CSRF_COOKIE } from './session-cookies.ts';

/** The signed-in session of a request that passed requireSession. */
export function sessionOf(res: Response): AccessClaims {
  const claims = res.locals.session as AccessClaims | undefined;
  if (!claims) throw new NotAuthenticated();
  return claims;
}

/**
 * A valid access cookie whose session has not been logged out or revoked. A session still waiting
 * for its second factor gets 401 `totp_required`, except on the routes that complete it (and logout).
 */
export function requireSession(ctx: Context, options: { allowPendingSecondFactor?: boolean } = {}) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const token = readCookie(req, ACCESS_COOKIE);
    if (!token) throw new NotAuthenticated('Not authenticated');
    const claims = await ctx.accessTokens.verify(token);
    const state = await sessionState(ctx, claims.sessionId);
    await touchSession(ctx, claims.sessionId);
    if (state === 'second_factor_pending' && !options.allowPendingSecondFactor) throw new TotpRequired();
    res.locals.session = claims;
    res.locals.sessionState = state;
    next();
  };
}

/**
 * Double-submit CSRF check: X-CSRF-Token must equal the svc_csrf cookie (constant time), and the
 * request must come from the panel's own origin (Origin, else Referer, equal to PUBLIC_URL's).
 */
export function requireCsrf(ctx: Context) {
  const allowedOrigin = new URL(ctx.config.publicUrl).origin;
  return (req: Request, _res: Response, next: NextFunction) => {
    const header = req.get('x-csrf-token');
    const cookie = readCookie(req, CSRF_COOKIE);
    if (!header || !cookie || !safeEqual(header, cookie)) throw new CsrfMismatch('CSRF token missing or does not match');
    const origin = req.get('origin') ?? originOf(req.get('referer'));
    if (origin !== allowedOrigin) throw new CsrfMismatch('Request origin does not match the panel origin');
    next();
  };
}

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
