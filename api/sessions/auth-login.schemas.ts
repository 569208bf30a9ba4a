import { z } from 'zod';
import { loginBody, sessionExchangeBody, sessionInfo } from '../auth/auth.schemas.ts';
import { totpVerifyBody } from '../auth/totp.schemas.ts';
import { rowId } from '../middleware/validate.ts';

/**
 * `POST /v1/auth/login`: the password, or the pre-auth token of a sign-in that a gate paused (then
 * without the password), and what the panel's second step and second factor take.
 */
export const apiLoginBody = z
  .object({
    email: loginBody.shape.email.optional().describe('With `password`; compared lower-cased and NFKC-normalised'),
    password: loginBody.shape.password.optional(),
    pre_auth_token: sessionExchangeBody.shape.pre_auth_token
      .optional()
      .describe(
        'Instead of `email` and `password`: the `details.pre_auth_token` of a 403 `device_approval_required` or `concurrent_login_pending`, to finish that sign-in once approved (valid 10 minutes, used once)',
      ),
    team_id: rowId().optional().describe('One of your ACTIVE teams; may be left out when you have exactly one'),
    totp_code: totpVerifyBody.shape.totp_code.optional().describe('Required when two-factor authentication is on: the 6-digit code of your authenticator app'),
    device_fingerprint: sessionInfo.shape.device_fingerprint
      .optional()
      .describe(
        "A stable id of this machine or script (8 to 128 characters), as `session_info.device_fingerprint` of the panel's sign-in. Left out: an unknown device every time",
      ),
  })
  .superRefine((body, issues) => {
    const withPassword = body.email !== undefined || body.password !== undefined;
    if (body.pre_auth_token !== undefined && withPassword) {
      issues.addIssue({ code: 'custom', path: ['pre_auth_token'], message: 'send either pre_auth_token or email and password, not both' });
      return;
    }
    if (body.pre_auth_token !== undefined) return;
    if (body.email === undefined) issues.addIssue({ code: 'custom', path: ['email'], message: 'required (or pre_auth_token)' });
    if (body.password === undefined) issues.addIssue({ code: 'custom', path: ['password'], message: 'required (or pre_auth_token)' });
  });

export const apiLoginReply = z.object({
  access_token: z.string().describe("EdDSA JWT, the same kind as the panel session's `svc_access`; send as `Authorization: Bearer <token>`"),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().describe('Seconds the access token is valid (6 hours)'),
  session_id: z.string().describe('The session behind the token: see `GET /v1/sessions`'),
  team_id: z.number().int(),
  user_id: z.number().int(),
});
