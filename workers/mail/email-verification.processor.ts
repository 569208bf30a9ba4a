import { sendEmailVerification } from '../../shared/domains/auth/email-verification.ts';
import type { Processor } from '../registry.ts';

export const sendEmailVerificationProcessor: Processor<'mail.email-verification'> = async (deps, payload) => ({
  sent: await sendEmailVerification(deps, payload.email),
});
