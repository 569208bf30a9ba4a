import { z } from 'zod';
import { pageQuery } from '../middleware/pagination.ts';
import { rowId } from '../middleware/validate.ts';
import { sessionInfo } from './auth.schemas.ts';

/**
 * Bodies and replies of new-device approval, login activity and trusted devices (spec parts 2.4,
 * 2.5, 4.3 and 4.9), field for field.
 */
const preAuthToken = z.string().min(16).max(512);
const deviceFingerprint = sessionInfo.shape.device_fingerprint;

export const deviceChallengeBody = z.object({
  pre_auth_token: preAuthToken,
  device_fingerprint: deviceFingerprint,
  ip: z.string().max(64).optional().describe('What the client says; the server records the address it saw'),
  user_agent: z.string().max(512).optional().describe('What the client says; the server records the User-Agent header'),
});

export const deviceApproveBody = z.object({
  pre_auth_token: preAuthToken,
  device_fingerprint: deviceFingerprint,
  otp_code: z.string().regex(/^\d{6}$/, { error: 'must be the 6 digits from the e-mail' }),
});

export const revokeDeviceBody = z.object({ device_id: rowId() });

export const loginActivityQuery = pageQuery;

const timestamp = z.iso.datetime().describe('ISO 8601, UTC');

export const loginActivityReply = z.object({
  activity: z.array(
    z.object({
      id: z.number().int(),
      event_type: z.enum(['login', 'refresh']),
      ip: z.string().nullable().describe('As the server saw it'),
      user_agent: z.string().nullable(),
      device_fingerprint: z.string().nullable(),
      geo: z.object({ city: z.string().nullable(), country: z.string().nullable() }),
      created_at: timestamp,
    }),
  ),
  pagination: z.object({ page: z.number().int(), page_size: z.number().int(), total: z.number().int(), total_pages: z.number().int() }),
});

export const trustedDevicesReply = z.object({
  devices: z.array(
    z.object({
      id: z.number().int(),
      device_label: z.string().describe('From the user agent, such as "Firefox on Linux"'),
      user_agent: z.string().nullable(),
      first_ip: z.string().nullable(),
      last_ip: z.string().nullable(),
      first_seen_at: timestamp,
      last_seen_at: timestamp,
      trusted_at: timestamp,
      revoked_at: timestamp.nullable().describe('null while the device is trusted'),
    }),
  ),
});
