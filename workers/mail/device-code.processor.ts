import { sendDeviceCode } from '../../shared/domains/auth/devices/device-code.ts';
import type { Processor } from '../registry.ts';

export const sendDeviceCodeProcessor: Processor<'mail.device-code'> = async (deps, payload) => ({
  sent: await sendDeviceCode(deps, payload.challengeId),
});
