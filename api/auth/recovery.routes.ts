import { createHash } from 'node:crypto';
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { Context } from '../../shared/context.ts';
import { confirmEmailVerification } from '../../shared/domains/auth/email-verification.ts';
import { normalizeEmail } from '../../shared/domains/auth/identity.ts';
import { confirmPasswordReset } from '../../shared/domains/auth/password-reset.ts';
import { RateLimited } from '../../shared/errors.ts';
import { enqueue } from '../../shared/jobs/queues.ts';
import { rateLimitPerIp } from '../middleware/rate-limit.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { emailBody, passwordResetConfirmBody, tokenBody } from './auth.schemas.ts';

const verificationRequested = 'If an account with this e-mail exists and is not verified yet, a verification link is on its way.';
const resetRequested = 'If an account with this e-mail exists, a password reset link is on its way.';

/**
 * E-mail verification and password reset: spec parts 4.6 and 4.7. Requests only enqueue a job with
 * the address; the worker looks it up, so known and unknown addresses get the same answer in the
 * same time, and no token ever sits in the queue.
 */
export function recoveryRoutes(ctx: Context): Router {
  const router = Router();
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

  router.post('/email/verification/request', perIp, perAddress('email-verification-address'), async (req, res) => {
    const { email } = parseOrFail(emailBody, req.body);
    await enqueue(ctx.queues, 'mail.email-verification', { email: normalizeEmail(email) });
    res.json({ message: verificationRequested });
  });

  router.post('/email/verification/confirm', async (req, res) => {
    const { token } = parseOrFail(tokenBody, req.body);
    await confirmEmailVerification(ctx.db, token);
    res.json({ message: 'E-mail address verified. You can sign in now.' });
  });

  router.post('/password-reset/request', perIp, perAddress('password-reset-address'), async (req, res) => {
    const { email } = parseOrFail(emailBody, req.body);
    await enqueue(ctx.queues, 'mail.password-reset', { email: normalizeEmail(email) });
    res.json({ message: resetRequested });
  });

  router.post('/password-reset/confirm', async (req, res) => {
    const body = parseOrFail(passwordResetConfirmBody, req.body);
    await confirmPasswordReset(ctx, body.token, body.new_password);
    res.json({ message: 'Password changed. Every session of this account has been signed out; sign in with the new password.' });
  });

  return router;
}
