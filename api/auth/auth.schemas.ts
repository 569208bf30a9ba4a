import { z } from 'zod';
import { normalizeEmail } from '../../shared/domains/auth/identity.ts';
import { rowId } from '../middleware/validate.ts';

/**
 * Request bodies of the spec's authentication endpoints (part 4), field for field. Lengths the spec
 * leaves open are bounded here so nothing unbounded reaches hashing or the database.
 */
// Normalised (NFKC, lower case) before it is checked, so a full-width spelling of an address matches it.
const email = z
  .string()
  .max(1024)
  .meta({ format: 'email' })
  .transform(normalizeEmail)
  .pipe(z.email({ error: 'must be an e-mail address' }).max(254));
const loginPassword = z.string().min(1).max(1024); // policy is checked when a password is set
const newPassword = z.string().max(1024); // 8..128 after NFKC, checked by the domain
const token = z.string().min(16).max(512);
const displayName = z.string().trim().min(1).max(100);

export const loginBody = z.object({
  email,
  password: loginPassword,
  remember_me: z.boolean().default(false),
});

export const sessionInfo = z.object({
  device_fingerprint: z.string().min(8).max(128),
  ip: z.string().max(64).optional(),
  user_agent: z.string().max(512).optional(),
  geo: z.object({ city: z.string().max(128).optional(), country: z.string().max(8).optional() }).optional(),
});

export const sessionExchangeBody = z.object({
  pre_auth_token: token,
  team_id: rowId(),
  session_info: sessionInfo,
});

export const registerOwnerBody = z.object({
  email,
  password: newPassword,
  name: displayName,
  team_name: displayName,
  team_slug: z.string().max(64),
});

export const registerFromInviteBody = z.object({
  invite_token: token,
  email,
  password: newPassword,
  name: displayName,
});

export const emailBody = z.object({ email });
export const tokenBody = z.object({ token });
export const passwordResetConfirmBody = z.object({
  token,
  new_password: newPassword,
  // Ours, beside the spec's two fields (optional, so a client that sends only those is unaffected).
  revoke_api_tokens: z
    .boolean()
    .default(true)
    .describe('Also revoke every API token the user created, in every team (default true: whoever took the password may have made some)'),
});

/* Replies, as documented (spec parts 2.1, 2.2, 4, 7.1). */

export const errorReply = z
  .object({
    detail: z.string(),
    code: z.enum([
      'not_authenticated',
      'totp_required',
      'missing_permission',
      'csrf_mismatch',
      'device_approval_required',
      'validation_error',
      'concurrent_login_denied',
      'rate_limit_exceeded',
      'payload_too_large',
      'not_found',
      'internal_error',
    ]),
  })
  .meta({ id: 'AuthError' });

export const unverifiedEmailReply = z
  .object({
    detail: z.string(),
    email: z.string().describe('The address that must be verified first'),
    code: z.literal('validation_error'),
  })
  .meta({ id: 'AuthUnverifiedEmailError' });

export const messageReply = z.object({ message: z.string() });

export const currentUserReply = z.object({
  user_id: z.number().int(),
  user_name: z.string(),
  team_id: z.number().int(),
  team_name: z.string(),
  role_id: z.number().int(),
  role_name: z.string(),
  permissions: z.array(z.string()).describe('Permission strings; the single entry `*` means all'),
});

export const loginReply = z.object({
  pre_auth_token: z.string().describe('48 characters, valid 10 minutes, usable once'),
  teams: z.array(z.object({ team_id: z.number().int(), team_name: z.string(), role_name: z.string(), status: z.string().describe('ACTIVE or SUSPENDED') })),
});

export const refreshReply = z.object({ access_token: z.string(), refresh_token: z.string() });

export const statusReply = z.object({
  status: z.enum(['operational', 'degraded']),
  checks: z.object({ postgres: z.enum(['ok', 'unavailable']), redis: z.enum(['ok', 'unavailable']) }),
});

export const registerOwnerReply = z.object({ user_id: z.number().int(), team_id: z.number().int(), message: z.string() });

export const registerFromInviteReply = registerOwnerReply.extend({ role_id: z.number().int(), role_name: z.string() });

export const concurrentPendingReply = z.object({
  detail: z.object({ status: z.literal('pending'), token: z.string().describe('Identifies this login request; see /concurrent-login/*') }),
  code: z.literal('concurrent_login_pending'),
});
