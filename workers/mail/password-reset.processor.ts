import { sendPasswordReset } from '../../shared/domains/auth/password-reset.ts';
import type { Processor } from '../registry.ts';

export const sendPasswordResetProcessor: Processor<'mail.password-reset'> = async (deps, payload) => ({
  sent: await sendPasswordReset(deps, payload.email),
});
