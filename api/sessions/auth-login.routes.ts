import type { Context } from '../../shared/context.ts';
import { apiLogin, SignInPaused } from '../../shared/domains/auth/api-login.ts';
import { rateLimitPerIp } from '../middleware/rate-limit.ts';
import { clientIp } from '../middleware/request-context.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { apiLoginBody, apiLoginReply } from './auth-login.schemas.ts';
import { v1Router } from '../v1/authorize.ts';
import { dataEnvelope, errorEnvelope, metaOf, sendData } from '../v1/envelope.ts';
import { toV1Error } from '../v1/v1-errors.ts';

const description = [
  "The panel's two-step sign-in (`/api/v1/auth/login`, then `/session-exchange`) in one call, with every check it makes: the password ",
  '(an unknown e-mail and a wrong password get the same 401 in about the same time), the account lock, e-mail verification (403 ',
  '`email_not_verified`), membership, new-device approval, concurrent-login approval and the second factor. It opens a session like ',
  "the panel's, listed by `GET /v1/sessions`, and answers its access token (6 hours). No refresh token is given: sign in again, or ",
  'use an API token for long-lived access.\n\n',
  '- `team_id` may be left out by a member of exactly one ACTIVE team; with several, 422 on `team_id`. A team you are not an ',
  'active member of: 403 `missing_permission`.\n',
  '- Two-factor authentication on: `totp_code` is required (missing: 401 `details.reason: totp_required`, nothing spent). A wrong, ',
  'replayed or used code answers 401 and ends the session it would have opened (sign in again); codes count toward the account ',
  'throttle, and each code works once. Ignored when two-factor authentication is off.\n',
  '- A new device (approval is on by default): 403 `device_approval_required` with `details.pre_auth_token` and ',
  '`details.device_fingerprint`. Ask for the e-mailed code with `POST /api/v1/auth/device/challenge` and approve it with ',
  '`/device/approve` (both take those two values), then call this again with `pre_auth_token` (instead of the password) or with the ',
  'password; send that `device_fingerprint` every time from then on, since the device is now trusted.\n',
  '- Another device of yours signed in while the team asks for approval: 403 `concurrent_login_pending` with `details.token` ',
  '(what the live session approves with `/api/v1/auth/concurrent-login/approve`) and `details.pre_auth_token`: once approved, call ',
  'this again with that `pre_auth_token` and the same `device_fingerprint`. Denied: 403 `concurrent_login_denied`.\n\n',
  "Limited per client IP by `RATE_LIMIT_LOGIN`, shared with the panel's `/login`, besides the /v1 limit.",
].join('');

const error = (text: string) => ({ description: text, schema: errorEnvelope });

/** `POST /v1/auth/login`: the general API's own sign-in (issue 4), built on the panel's. */
export function authLoginRoutes(ctx: Context) {
  return v1Router().route(
    {
      method: 'post',
      path: '/auth/login',
      operationId: 'auth.login',
      summary: 'Sign in: e-mail and password (and TOTP code) for a bearer access token',
      description,
      tags: ['auth'],
      body: apiLoginBody,
      rateLimited: true,
      audit: { action: 'auth.login', target: 'session' },
      responses: {
        200: { description: 'Signed in', schema: dataEnvelope(apiLoginReply) },
        401: error(
          'AUTHENTICATION_ERROR: wrong e-mail or password, locked account, invalid pre-auth token, or a wrong TOTP code; `details.reason: totp_required` when `totp_code` is missing',
        ),
        403: error(
          'AUTHORIZATION_ERROR: `details.reason` is `email_not_verified`, `missing_permission` (not an active member of the team), `device_approval_required` or `concurrent_login_pending` (with `pre_auth_token`), or `concurrent_login_denied`',
        ),
        422: error('VALIDATION_ERROR: `details.fields` names what failed; `team_id` when you belong to several teams and left it out'),
      },
    },
    rateLimitPerIp(ctx.rateLimit, 'login', ctx.config.rateLimits.login),
    async (req, res) => {
      // Answers carry an access token or a pre-auth token: never kept for Idempotency-Key replays.
      res.locals.idempotencyRedact = () => undefined;
      const body = parseOrFail(apiLoginBody, req.body);
      try {
        const login = await apiLogin(ctx, {
          credentials: body.pre_auth_token !== undefined ? { preAuthToken: body.pre_auth_token } : { email: body.email!, password: body.password! },
          teamId: body.team_id,
          totpCode: body.totp_code,
          deviceFingerprint: body.device_fingerprint,
          ip: clientIp(req),
          userAgent: req.get('user-agent') ?? null,
          requestId: req.id,
        });
        sendData(req, res, {
          access_token: login.accessToken,
          token_type: 'Bearer',
          expires_in: login.expiresIn,
          session_id: login.sessionId,
          team_id: login.teamId,
          user_id: login.userId,
        });
      } catch (caught) {
        if (!(caught instanceof SignInPaused)) throw caught;
        // The gate's own answer, plus what the caller needs to finish this very sign-in.
        const mapped = toV1Error(caught.gate);
        const details = { ...mapped.details, pre_auth_token: caught.preAuthToken, device_fingerprint: caught.deviceFingerprint };
        res.status(mapped.status).json({ error: { code: mapped.code, message: mapped.message, details }, meta: metaOf(req) });
      }
    },
  );
}
