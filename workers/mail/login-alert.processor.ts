import type { Processor } from '../registry.ts';

// Placeholder until the issue 3 work fills it in.
export const sendLoginAlertProcessor: Processor<'mail.login-alert'> = async () => ({ sent: false });
