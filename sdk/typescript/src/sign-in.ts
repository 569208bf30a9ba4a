// The calls it makes, not the Berth class: the class builds on this module.
import type { BerthApi } from './generated/api.ts';
import { BerthError } from './errors.ts';

export type DeviceApprovalInfo = {
  email: string;
  /** The device being approved: send the same one next time and no approval is asked. */
  deviceFingerprint: string;
};

export type SignInOptions = {
  email: string;
  password: string;
  /** Needed when the user is an active member of several teams. */
  teamId?: number;
  /** A stable id of this machine or script (8 to 128 characters); without one every sign-in is from a new device. */
  deviceFingerprint?: string;
  /** Asked for a 6-digit code when the account has two-factor authentication on. */
  totp?: () => Promise<string>;
  /** A new device: Berth has e-mailed a code to the user; answer it. */
  onDeviceApproval: (info: DeviceApprovalInfo) => Promise<string>;
};

/** The steps a sign-in may take at most: device approval, then a TOTP code, then maybe a second code. */
const MAX_SIGN_IN_ROUNDS = 5;

function reasonOf(error: unknown): string | undefined {
  return error instanceof BerthError ? error.details.reason : undefined;
}

/**
 * POST /v1/auth/login until it answers an access token: a new device is approved with the e-mailed
 * code (challenge, the caller's code, approve) and the sign-in finished with its pre-auth token; a
 * `totp_required` asks `totp` for a code. Anything else (a wrong password, `concurrent_login_pending`,
 * `concurrent_login_denied`) is thrown as the BerthError the API answered.
 */
export async function signInForToken(client: Pick<BerthApi, 'auth' | 'browserAuth'>, options: SignInOptions): Promise<string> {
  let deviceFingerprint = options.deviceFingerprint ?? `berth-sdk-${crypto.randomUUID()}`;
  let credentials: { email: string; password: string } | { pre_auth_token: string } = { email: options.email, password: options.password };
  let totpCode: string | undefined;
  for (let round = 0; round < MAX_SIGN_IN_ROUNDS; round++) {
    try {
      const body = { ...credentials, device_fingerprint: deviceFingerprint, team_id: options.teamId, totp_code: totpCode };
      const session = await client.auth.login({ body });
      return session.access_token;
    } catch (error) {
      const reason = reasonOf(error);
      if (reason === 'totp_required' && options.totp) {
        totpCode = await options.totp();
        continue;
      }
      if (reason !== 'device_approval_required') throw error;
      const details = (error as BerthError).details;
      const preAuthToken = String(details.pre_auth_token);
      deviceFingerprint = typeof details.device_fingerprint === 'string' ? details.device_fingerprint : deviceFingerprint;
      await client.browserAuth.challengeDevice({ body: { pre_auth_token: preAuthToken, device_fingerprint: deviceFingerprint } });
      const code = await options.onDeviceApproval({ email: options.email, deviceFingerprint });
      await client.browserAuth.approveDevice({ body: { pre_auth_token: preAuthToken, device_fingerprint: deviceFingerprint, otp_code: code.trim() } });
      credentials = { pre_auth_token: preAuthToken };
    }
  }
  throw new Error(`signing in as ${options.email} did not finish in ${MAX_SIGN_IN_ROUNDS} rounds`);
}
