import { DeviceApprovalRequired } from '../../../errors.ts';
import { hasApprovedChallenge } from '../devices/device-challenges.ts';
import { touchTrustedDevice } from '../devices/trusted-devices.ts';
import type { ExchangeGate } from './exchange-gate.ts';

/**
 * New-device approval. A device is known when the user has a live (not revoked) trusted device of
 * its fingerprint; signing in from it records it as seen. An unknown device may enter a team only
 * when the team turned approval off (`settings.new_device_approval: false`; on by default) or when
 * this very sign-in approved it with an e-mailed code; otherwise 403 `device_approval_required`.
 */
export const deviceApprovalGate: ExchangeGate = {
  name: 'device-approval',
  async check(trx, attempt) {
    const fingerprint = attempt.sessionInfo.device_fingerprint;
    if (await touchTrustedDevice(trx, { userId: attempt.user.id, fingerprint, ip: attempt.ip, userAgent: attempt.userAgent })) return;
    if (attempt.team.settings?.new_device_approval === false) return;
    if (await hasApprovedChallenge(trx, attempt.preAuth.id, fingerprint)) return;
    throw new DeviceApprovalRequired();
  },
};
