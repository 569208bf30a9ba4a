import type { NextFunction, Request, Response } from 'express';
import type { Context } from '../../shared/context.ts';
import { loadPrincipalUser, type AccountFacts, type CurrentUser } from '../../shared/domains/auth/current-user.ts';
import { noPrincipalCache, type PrincipalCache } from '../../shared/domains/auth/principal-cache.ts';
import { grants, isSubset } from '../../shared/domains/rbac/permissions.ts';
import { sessionState } from '../../shared/domains/auth/sessions.ts';
import { touchSession } from '../../shared/domains/auth/session-last-seen.ts';
import { authenticateApiToken, recordApiTokenUse } from '../../shared/domains/api-tokens/authenticate.ts';
import { isApiTokenSecret } from '../../shared/domains/api-tokens/secret.ts';
import { NotAuthenticated, TotpRequired } from '../../shared/errors.ts';
import { ACCESS_COOKIE } from '../auth/session-cookies.ts';
import { requireCsrf } from '../auth/session-guard.ts';
import { readCookie } from '../middleware/cookies.ts';
import { clientIp } from '../middleware/request-context.ts';
import { ipBucketOf } from '../../shared/ip-bucket.ts';

/**
 * Who is calling /v1, with the permissions their role holds now (kept by the principal cache until
 * any of it changes: shared/domains/auth/principal-cache.ts).
 * `via: 'api_token'` callers have no session; their token's own grants narrow the role's
 * (`tokenPermissions`), so what they may do is what both allow: see `principalHolds`.
 */
export type Principal = CurrentUser & {
  /** The user is an operator (staff above teams); see `actsAsOperator` for when that power applies. */
  operator: boolean;
  /** What /v1/me shows beside the current user. */
  account: AccountFacts;
  via: 'bearer' | 'cookie' | 'api_token';
  /** The sign-in session behind a bearer access token or the cookie; null for an API token. */
  sessionId: string | null;
  /** The API token used, when `via` is `api_token`. */
  apiTokenId: number | null;
  /** The API token's grants (a subset of its creator's at creation); null when not an API token. */
  tokenPermissions: string[] | null;
};

/** Whether the caller may do `permission` now: their role grants it and, for an API token, the token too. */
export function principalHolds(principal: Principal, permission: string): boolean {
  return grants(principal.permissions, permission) && (principal.tokenPermissions === null || grants(principal.tokenPermissions, permission));
}

/**
 * Whether the caller holds every one of `requested` (exact permissions or wildcards), so may hand
 * them on to a role or an API token: nobody grants what they do not hold.
 */
export function principalCovers(principal: Principal, requested: readonly string[]): boolean {
  return isSubset(requested, principal.permissions) && (principal.tokenPermissions === null || isSubset(requested, principal.tokenPermissions));
}

/**
 * Whether the caller may use operator routes (the fleet): an operator signed in with a session
 * (bearer access token or cookie). API tokens never carry operator power, whatever their grants:
 * a leaked automation token must not reach the fleet.
 */
export function actsAsOperator(principal: Principal): boolean {
  return principal.operator && principal.via !== 'api_token';
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Finds the caller without answering for them: a valid `Authorization: Bearer <access token>`, or
 * the panel's cookie session (CSRF-checked on unsafe methods). The outcome is kept for
 * `requirePrincipal`, so the rate limiter can first count the request against the right subject.
 * Only access tokens (EdDSA JWTs, `typ: at+jwt`) verify: a pre-auth or refresh token never does.
 * A bearer starting with the API-token marker (`berth_pat_`) is looked up as an API token, never
 * verified as a JWT; the cookie never carries one.
 */
export function identifyPrincipal(ctx: Context, principals: PrincipalCache = noPrincipalCache) {
  const csrf = requireCsrf(ctx);
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const header = req.get('authorization');
      let via: Principal['via'];
      let token: string | undefined;
      if (header !== undefined) {
        const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(header.trim());
        if (!match) throw new NotAuthenticated('Authorization must be "Bearer <token>"');
        token = match[1]!;
        via = isApiTokenSecret(token) ? 'api_token' : 'bearer';
      } else {
        via = 'cookie';
        token = readCookie(req, ACCESS_COOKIE);
      }
      if (token && via === 'api_token') {
        const principal = await principals.remember(`api_token:${token}`, () => apiTokenPrincipal(ctx, token));
        await recordApiTokenUse(ctx, principal.apiTokenId!, clientIp(req));
        res.locals.principal = principal;
      } else if (token) {
        const sessionVia = via as 'bearer' | 'cookie';
        const principal = await principals.remember(`${via}:${token}`, () => sessionPrincipal(ctx, token, sessionVia));
        await touchSession(ctx, principal.sessionId!);
        if (via === 'cookie' && !safeMethods.has(req.method)) csrf(req, res, () => undefined);
        res.locals.principal = principal;
      }
    } catch (error) {
      res.locals.authError = error;
    }
    next();
  };
}

/**
 * A session's caller (bearer access token or cookie): the token verified, the session live and past
 * its second factor, the member in the token's team. Kept until the token expires or something it
 * depends on changes.
 */
async function sessionPrincipal(ctx: Context, token: string, via: 'bearer' | 'cookie') {
  const claims = await ctx.accessTokens.verify(token);
  if ((await sessionState(ctx, claims.sessionId)) === 'second_factor_pending') throw new TotpRequired();
  const user = await loadPrincipalUser(ctx.db, claims.userId, claims.teamId);
  const value: Principal = { ...user, via, sessionId: claims.sessionId, apiTokenId: null, tokenPermissions: null };
  return { value, tags: tagsOf(value), expiresAt: claims.expiresAt };
}

/** An API token's caller: its creator in its team with their role, narrowed by the token's grants. */
async function apiTokenPrincipal(ctx: Context, secret: string) {
  const token = await authenticateApiToken(ctx, secret);
  const user = await loadPrincipalUser(ctx.db, token.userId, token.teamId);
  const value: Principal = { ...user, via: 'api_token', sessionId: null, apiTokenId: token.id, tokenPermissions: token.permissions };
  return { value, tags: tagsOf(value), expiresAt: token.expiresAt?.getTime() };
}

/** What a cached caller depends on, in the principal triggers' names. */
function tagsOf(principal: Principal): string[] {
  const tags = [`user:${principal.user_id}`, `team:${principal.team_id}`, `role:${principal.role_id}`];
  if (principal.sessionId) tags.push(`session:${principal.sessionId}`);
  if (principal.apiTokenId) tags.push(`api_token:${principal.apiTokenId}`);
  return tags;
}

/** The caller, or the reason there is none (401 AUTHENTICATION_ERROR, 403 for a failed CSRF check). */
export function principalOf(res: Response): Principal {
  const principal = res.locals.principal as Principal | undefined;
  if (principal) return principal;
  throw (res.locals.authError as Error | undefined) ?? new NotAuthenticated('Authentication required: send Authorization: Bearer <token>');
}

export function requirePrincipal(_req: Request, res: Response, next: NextFunction): void {
  principalOf(res);
  next();
}

/** What the rate limiter counts a request against: the session when known, else the client IP (an IPv6 client's /64). */
export function rateLimitSubject(req: Request, res: Response): string {
  const principal = res.locals.principal as Principal | undefined;
  if (principal?.apiTokenId != null) return `api_token:${principal.apiTokenId}`;
  if (principal?.sessionId != null) return `session:${principal.sessionId}`;
  return `ip:${ipBucketOf(clientIp(req))}`;
}
