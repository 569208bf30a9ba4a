import type { Processor } from '../registry.ts';

// Placeholder until the issue 3 work fills it in.
export const sendConcurrentLoginProcessor: Processor<'mail.concurrent-login'> = async () => ({ sent: false });
