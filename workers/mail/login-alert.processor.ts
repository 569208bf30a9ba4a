import { sendLoginAlert } from '../../shared/domains/auth/risk/login-alert-mail.ts';
import type { Processor } from '../registry.ts';

export const sendLoginAlertProcessor: Processor<'mail.login-alert'> = async (deps, payload) => ({
  sent: await sendLoginAlert(deps, payload.alertId),
});
