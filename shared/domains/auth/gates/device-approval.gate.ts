import type { ExchangeGate } from './exchange-gate.ts';

/** New-device approval (issue 3): owned by the device-approval work. */
export const deviceApprovalGate: ExchangeGate = {
  name: 'device-approval',
  async check() {},
};
