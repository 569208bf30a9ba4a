import type { Processor } from '../registry.ts';

// Placeholder until the issue 3 work fills it in.
export const sendDeviceCodeProcessor: Processor<'mail.device-code'> = async () => ({ sent: false });
