import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Context } from '../../shared/context.ts';
import { confirmEmailVerification } from '../../shared/domains/auth/email-verification.ts';
import { normalizeEmail } from '../../shared/domains/auth/identity.ts';
import { confirmPasswordReset } from '../../shared/domains/auth/password-reset.ts';
import { RateLimited } from '../../shared/errors.ts';
import { enqueue } from '../../shared/jobs/queues.ts';
import { rateLimitPerIp } from '../middleware/rate-limit.ts';
import { requestOrigin } from '../middleware/request-origin.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { DocumentedRouter } from '../openapi/documented-router.ts';
import { authErrors } from './auth-responses.ts';
import { emailBody, errorReply, messageReply, passwordResetConfirmBody, tokenBody } from './auth.schemas.ts';

const verificationRequested = 'If an account with this e-mail exists and is not verified yet, a verification link is on its way.';
const resetRequested = 'If an account with this e-mail exists, a password reset link is on its way.';
const sameAnswer =
  'Known and unknown addresses get the same answer in the same time: the request only queues a job, and the worker looks the ' +
  'address up. Rate limited per IP and per address.';

/**
 * E-mail verification and password reset: spec parts 4.6 and 4.7. Requests only enqueue a job with
 * the address; the worker looks it up, so known and unknown addresses get the same answer in the
 * same time, and no token ever sits in the queue.
 */
export function recoveryRoutes(ctx: Context): DocumentedRouter {
  const router = new DocumentedRouter();
  const perIp = rateLimitPerIp(ctx.rateLimit, 'email', ctx.config.rateLimits.email);

  // Per address as well, so one inbox cannot be flooded from many IPs. Unknown addresses count the
  // same way, so the limit reveals nothing.
  const perAddress = (bucket: string) => async (req: Request, _res: Response, next: NextFunction) => {
    const { email } = parseOrFail(emailBody, req.body);
    const subject = createHash('sha256').update(normalizeEmail(email)).digest('hex');
    const result = await ctx.rateLimit(bucket, subject, ctx.config.rateLimits.email).catch(() => undefined);
    if (result && !result.allowed) throw new RateLimited(result.retryAfterSeconds);
    next();
  };
  const requestResponses = {
    200: { description: 'Accepted (whether or not the address is known)', schema: messageReply },
    ...authErrors.invalid,
    ...authErrors.limited,
  };
  const confirmResponses = {
    200: { description: 'Done', schema: messageReply },
    401: { description: '`not_authenticated`: invalid, used or expired token', schema: errorReply },
    ...authErrors.invalid,
  };

  router.route(
    {
      method: 'post',
      path: '/email/verification/request',
      operationId: 'browserAuth.requestEmailVerification',
      summary: 'Send a new verification link',
      description: `The link is valid 24 hours and works once. ${sameAnswer}`,
      tags: ['auth: recovery'],
      body: emailBody,
      rateLimited: true,
      responses: requestResponses,
    },
    perIp,
    perAddress('email-verification-address'),
    async (req, res) => {
      const { email } = parseOrFail(emailBody, req.body);
      await enqueue(ctx.queues, 'mail.email-verification', { email: normalizeEmail(email) });
      res.json({ message: verificationRequested });
    },
  );

  router.route(
    {
      method: 'post',
      path: '/email/verification/confirm',
      operationId: 'browserAuth.confirmEmailVerification',
      summary: 'Verify the address with the token from the e-mail',
      description:
        'Marks the address verified. The token comes from the link in the e-mail (24 hours, single use, stored hashed); an invalid, used or expired one is 401.',
      tags: ['auth: recovery'],
      body: tokenBody,
      responses: confirmResponses,
    },
    async (req, res) => {
      const { token } = parseOrFail(tokenBody, req.body);
      await confirmEmailVerification(ctx.db, token, requestOrigin(req));
      res.json({ message: 'E-mail address verified. You can sign in now.' });
    },
  );

  router.route(
    {
      method: 'post',
      path: '/password-reset/request',
      operationId: 'browserAuth.requestPasswordReset',
      summary: 'Send a password reset link',
      description: `The link is valid 30 minutes and works once; links are built from PUBLIC_URL, never from the request. ${sameAnswer}`,
      tags: ['auth: recovery'],
      body: emailBody,
      rateLimited: true,
      responses: requestResponses,
    },
    perIp,
    perAddress('password-reset-address'),
    async (req, res) => {
      const { email } = parseOrFail(emailBody, req.body);
      await enqueue(ctx.queues, 'mail.password-reset', { email: normalizeEmail(email) });
      res.json({ message: resetRequested });
    },
  );

  router.route(
    {
      method: 'post',
      path: '/password-reset/confirm',
      operationId: 'browserAuth.confirmPasswordReset',
      summary: 'Set a new password with the token from the e-mail',
      description:
        'Ends every session of the user and every open pre-auth token, and revokes every API token the user created (in every team) ' +
        'unless `revoke_api_tokens` is `false`. A password that breaks the policy gives 422 and leaves the token usable.',
      tags: ['auth: recovery'],
      body: passwordResetConfirmBody,
      responses: confirmResponses,
    },
    async (req, res) => {
      const body = parseOrFail(passwordResetConfirmBody, req.body);
      const { apiTokensRevoked } = await confirmPasswordReset(ctx, body.token, body.new_password, requestOrigin(req), {
        revokeApiTokens: body.revoke_api_tokens,
      });
      const tokens = apiTokensRevoked > 0 ? ` ${apiTokensRevoked === 1 ? '1 API token was' : `${apiTokensRevoked} API tokens were`} revoked.` : '';
      res.json({ message: `Password changed. Every session of this account has been signed out; sign in with the new password.${tokens}` });
    },
  );

  return router;
}
