import { sendConcurrentLoginNotice } from '../../shared/domains/auth/concurrent/concurrent-login-notice.ts';
import type { Processor } from '../registry.ts';

export const sendConcurrentLoginProcessor: Processor<'mail.concurrent-login'> = async (deps, payload) => ({
  sent: await sendConcurrentLoginNotice(deps, payload.requestId),
});
