import type { Context } from '../../shared/context.ts';
import { useBackupCode } from '../../shared/domains/auth/totp/backup-code-use.ts';
import { startTotpSetup } from '../../shared/domains/auth/totp/totp-setup.ts';
import { verifyTotpCode, type TotpOutcome } from '../../shared/domains/auth/totp/totp-verify.ts';
import { requestOrigin } from '../middleware/request-origin.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { DocumentedRouter } from '../openapi/documented-router.ts';
import { authErrors } from './auth-responses.ts';
import { errorReply, messageReply } from './auth.schemas.ts';
import { requireCsrf, requireSession, sessionOf } from './session-guard.ts';
import { backupCodeBody, totpSetupReply, totpVerifyBody } from './totp.schemas.ts';

const tags = ['auth: two-factor'];
const throttled =
  'Under the account throttle: a wrong, replayed or used code counts as a failure; after 5 consecutive failures of any factor ' +
  '(passwords included) the account locks for 1 minute, doubling to 15, and while locked every code, even a right one, gets the ' +
  'same 401 as a wrong one (and sign-in the same 401 as a wrong password). Parallel attempts are judged one at a time, so a ' +
  'burst cannot outrun the lock. A success resets the count.';
const codeErrors = {
  401: { description: '`not_authenticated`: no session, or a wrong, replayed or used code, or the account is locked', schema: errorReply },
  ...authErrors.forbidden,
  ...authErrors.invalid,
};

const verifyMessages: Record<TotpOutcome, string> = {
  enabled: 'Two-factor authentication is enabled. Keep your backup codes somewhere safe.',
  completed: 'Two-factor authentication complete: you are signed in.',
  checked: 'The code is valid.',
};

/** TOTP two-factor authentication with backup codes: spec parts 2.6 and 4.8. */
export function totpRoutes(ctx: Context): DocumentedRouter {
  const router = new DocumentedRouter();

  router.route(
    {
      method: 'post',
      path: '/totp/setup',
      operationId: 'browserAuth.setupTotp',
      summary: 'Start TOTP enrolment: a secret, its otpauth URI and ten backup codes',
      description:
        'Needs a fully signed-in session. The secret (20 random bytes, base32) is stored sealed (AES-256-GCM under SECRET_KEY) as a ' +
        '*pending* secret, and the ten 8-digit backup codes are stored only as HMAC-SHA256 under a key derived from SECRET_KEY, also ' +
        'pending. Two-factor authentication stays off until `/totp/verify` accepts a code of this secret. Calling setup again replaces ' +
        'the pending secret and codes. With TOTP already enabled it answers 422; disabling and re-enrolling are not offered yet.',
      tags,
      security: ['sessionCookie'],
      csrf: true,
      responses: {
        200: { description: 'Setup pending: show the QR code and the backup codes', schema: totpSetupReply },
        401: { description: '`not_authenticated` without a session; `totp_required` while the session waits for its second factor', schema: errorReply },
        ...authErrors.forbidden,
        422: { description: '`validation_error`: TOTP is already enabled', schema: errorReply },
      },
    },
    requireSession(ctx),
    requireCsrf(ctx),
    async (_req, res) => {
      const setup = await startTotpSetup(ctx, sessionOf(res).userId);
      res.json({ secret: setup.secret, qr_code_url: setup.qrCodeUrl, backup_codes: setup.backupCodes });
    },
  );

  router.route(
    {
      method: 'post',
      path: '/totp/verify',
      operationId: 'browserAuth.verifyTotp',
      summary: 'Check a TOTP code: finish enrolment, or complete a session that waits for its second factor',
      description:
        'Allowed while the session waits for its second factor. Once TOTP is enabled, every session `/session-exchange` issues waits ' +
        'for it: all other endpoints except `/totp/backup`, `/logout` and `/status` answer 401 `totp_required` (a refresh works but ' +
        'the session keeps waiting). Here a current code completes it. Without TOTP enabled and with a setup in progress, a code of ' +
        'the pending secret enables TOTP and makes the backup codes live. On a session that waits for nothing, a valid code is only ' +
        'checked. Codes are RFC 6238 (HMAC-SHA1, 30-second steps, 6 digits); the current step and one step either side are accepted, ' +
        "and each step's code works once (a code of a step at or before the last accepted one is refused). " +
        throttled,
      tags,
      security: ['sessionCookie'],
      csrf: true,
      body: totpVerifyBody,
      responses: {
        200: { description: 'Accepted; `message` says what changed', schema: messageReply },
        ...codeErrors,
        422: { description: '`validation_error`: not 6 digits, or no setup in progress and TOTP not enabled', schema: errorReply },
      },
    },
    requireSession(ctx, { allowPendingSecondFactor: true }),
    requireCsrf(ctx),
    async (req, res) => {
      const { totp_code } = parseOrFail(totpVerifyBody, req.body);
      const session = sessionOf(res);
      const outcome = await verifyTotpCode(ctx, { userId: session.userId, sessionId: session.sessionId, code: totp_code, origin: requestOrigin(req) });
      res.json({ message: verifyMessages[outcome] });
    },
  );

  router.route(
    {
      method: 'post',
      path: '/totp/backup',
      operationId: 'browserAuth.useBackupCode',
      summary: 'Use a backup code instead of a TOTP code',
      description:
        'Allowed while the session waits for its second factor, which an unused backup code completes. Each code works once: it is ' +
        'consumed by one conditional update, so of two parallel uses only one succeeds. Codes of a setup not yet verified do not work. ' +
        'On a session that waits for nothing, a valid code is still used up. ' +
        throttled,
      tags,
      security: ['sessionCookie'],
      csrf: true,
      body: backupCodeBody,
      responses: { 200: { description: 'Accepted; the code is used up', schema: messageReply }, ...codeErrors },
    },
    requireSession(ctx, { allowPendingSecondFactor: true }),
    requireCsrf(ctx),
    async (req, res) => {
      const { backup_code } = parseOrFail(backupCodeBody, req.body);
      const session = sessionOf(res);
      const outcome = await useBackupCode(ctx, { userId: session.userId, sessionId: session.sessionId, code: backup_code, origin: requestOrigin(req) });
      res.json({
        message: outcome === 'completed' ? 'Backup code accepted: you are signed in. It cannot be used again.' : 'Backup code accepted and used up.',
      });
    },
  );

  return router;
}
