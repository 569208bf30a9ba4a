import type { Context } from '../../shared/context.ts';
import { approveDeviceChallenge, requestDeviceChallenge } from '../../shared/domains/auth/devices/device-challenges.ts';
import { rateLimitPerIp } from '../middleware/rate-limit.ts';
import { clientIp } from '../middleware/request-context.ts';
import { requestOrigin } from '../middleware/request-origin.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { DocumentedRouter } from '../openapi/documented-router.ts';
import { authErrors } from './auth-responses.ts';
import { messageReply } from './auth.schemas.ts';
import { deviceApproveBody, deviceChallengeBody } from './devices.schemas.ts';

const newDevice =
  'A device is known when the user has a trusted device with this `device_fingerprint` that is not revoked. From an unknown ' +
  'device, `/session-exchange` answers 403 `device_approval_required` (no cookies; the pre-auth token stays usable) unless the ' +
  'team turned new-device approval off (it is on by default). ';

/** New-device approval: spec part 4.3, between `/login` and `/session-exchange`. */
export function deviceRoutes(ctx: Context): DocumentedRouter {
  const router = new DocumentedRouter();

  router.route(
    {
      method: 'post',
      path: '/device/challenge',
      operationId: 'browserAuth.challengeDevice',
      summary: 'E-mail a code to approve a new device',
      description:
        newDevice +
        'This e-mails a 6-digit code to the user, bound to this pre-auth token and fingerprint, valid 10 minutes; a new challenge ' +
        "replaces the token's earlier open one (its code stops working); 5 wrong tries burn it. The code is minted by the mail job " +
        'when it sends (no code waits in the queue) and stored only as a SHA-256 salted with the challenge id: no hash can hide a ' +
        'six-digit code from an offline search, so the hash only keeps codes out of the database in clear; what protects a code is ' +
        'that it is online-only, bound to one sign-in that already took the password, short-lived and limited to 5 tries. The ' +
        "body's `ip` and `user_agent` are the client's statement; the server records the address it saw and the User-Agent " +
        'header. An unknown, used or expired pre-auth token answers 401. Limited per IP by `RATE_LIMIT_EMAIL`.',
      tags: ['auth: devices'],
      body: deviceChallengeBody,
      rateLimited: true,
      responses: {
        200: { description: 'The code is on its way', schema: messageReply },
        ...authErrors.unauthenticated,
        ...authErrors.invalid,
        ...authErrors.limited,
      },
    },
    rateLimitPerIp(ctx.rateLimit, 'device-challenge', ctx.config.rateLimits.email),
    async (req, res) => {
      const body = parseOrFail(deviceChallengeBody, req.body);
      await requestDeviceChallenge(ctx, {
        preAuthToken: body.pre_auth_token,
        fingerprint: body.device_fingerprint,
        ip: clientIp(req),
        userAgent: req.get('user-agent') ?? null,
      });
      res.json({ message: 'A sign-in code is on its way to your e-mail address. It is valid for 10 minutes.' });
    },
  );

  router.route(
    {
      method: 'post',
      path: '/device/approve',
      operationId: 'browserAuth.approveDevice',
      summary: 'Approve a new device with the e-mailed code',
      description:
        newDevice +
        'The code must match the latest challenge of this pre-auth token and fingerprint: a code of another sign-in, or of a ' +
        'replaced or expired challenge, answers 401. Five wrong codes burn the challenge (each try is reserved atomically before ' +
        'the comparison, so parallel guesses get no more than five), and each counts toward the account throttle; while the ' +
        'account is locked every code fails like a wrong one. The right code makes the device trusted (labelled from the user ' +
        'agent, with the IP the server saw), and `/session-exchange` with the same pre-auth token then succeeds.',
      tags: ['auth: devices'],
      body: deviceApproveBody,
      responses: {
        200: { description: 'The device is trusted', schema: messageReply },
        401: {
          description: '`not_authenticated`: wrong code, no open challenge (expired, replaced, burned), or an invalid pre-auth token',
          schema: authErrors.unauthenticated[401].schema,
        },
        ...authErrors.invalid,
      },
    },
    async (req, res) => {
      const body = parseOrFail(deviceApproveBody, req.body);
      await approveDeviceChallenge(ctx, {
        preAuthToken: body.pre_auth_token,
        fingerprint: body.device_fingerprint,
        code: body.otp_code,
        ip: clientIp(req),
        userAgent: req.get('user-agent') ?? null,
        origin: requestOrigin(req),
      });
      res.json({ message: 'Device approved. Continue signing in.' });
    },
  );

  return router;
}
