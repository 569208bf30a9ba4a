import type { CookieOptions, Response } from 'express';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../shared/crypto/access-tokens.ts';
import { refreshTtlSeconds } from '../../shared/domains/auth/sessions.ts';

export const ACCESS_COOKIE = 'svc_access';
export const REFRESH_COOKIE = 'svc_refresh';
export const CSRF_COOKIE = 'svc_csrf';

export type CookiePolicy = { secure: boolean };

/** Path=/, no Domain (host-only), SameSite=Lax; Secure in production or behind an https PUBLIC_URL. */
function baseOptions(policy: CookiePolicy): CookieOptions {
  return { path: '/', sameSite: 'lax', secure: policy.secure };
}

export function issueSessionCookies(
  res: Response,
  policy: CookiePolicy,
  tokens: { accessToken: string; refreshToken: string; csrfToken: string; rememberMe: boolean },
): void {
  const refreshMs = refreshTtlSeconds(tokens.rememberMe) * 1000;
  res.cookie(ACCESS_COOKIE, tokens.accessToken, { ...baseOptions(policy), httpOnly: true, maxAge: ACCESS_TOKEN_TTL_SECONDS * 1000 });
  res.cookie(REFRESH_COOKIE, tokens.refreshToken, { ...baseOptions(policy), httpOnly: true, maxAge: refreshMs });
  // Readable by the panel's scripts: it echoes the value in X-CSRF-Token (double submit).
  res.cookie(CSRF_COOKIE, tokens.csrfToken, { ...baseOptions(policy), httpOnly: false, maxAge: refreshMs });
}

export function clearSessionCookies(res: Response, policy: CookiePolicy): void {
  for (const name of [ACCESS_COOKIE, REFRESH_COOKIE]) res.clearCookie(name, { ...baseOptions(policy), httpOnly: true });
  res.clearCookie(CSRF_COOKIE, baseOptions(policy));
}
