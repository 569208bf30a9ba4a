import { z } from 'zod';
import { normalizeEmail } from '../../shared/domains/auth/identity.ts';
import type { InviteView } from '../../shared/domains/teams/invites.ts';
import { pageQuery } from '../v1/envelope.ts';
import { roleRef } from './roles.schemas.ts';
import { rowId } from '../middleware/validate.ts';

const timestamp = z.iso.datetime().describe('ISO 8601, UTC');
const statuses = ['pending', 'accepted', 'revoked', 'expired'] as const;

// Normalised (NFKC, lower case) before it is checked, as on the auth surface.
const email = z
  .string()
  .max(1024)
  .meta({ format: 'email' })
  .transform(normalizeEmail)
  .pipe(z.email({ error: 'must be an e-mail address' }).max(254));

export const createInviteBody = z.strictObject({
  email: email.describe('Who to invite; the invitation is mailed there and can only be accepted with this address'),
  role_id: rowId().describe("The role the invitee gets: built-in or one of the team's own, whose grants the caller holds"),
});

export const resendInviteBody = z.strictObject({}).describe('No fields: send `{}` (or no body)');

export const invitesQuery = pageQuery.extend({
  status: z.enum(statuses).optional().describe('Only invites in this status'),
});

export const inviteReply = z.object({
  id: z.number().int(),
  email: z.string(),
  status: z.enum(statuses).describe('`pending` until accepted, revoked or past `expires_at` (`expired`, which a resend reopens)'),
  role: roleRef,
  invited_by: z.object({ user_id: z.number().int(), name: z.string() }).nullable().describe("null when the inviter's account is gone"),
  created_at: timestamp,
  expires_at: timestamp,
  accepted_at: timestamp.nullable(),
  revoked_at: timestamp.nullable(),
});

export function inviteJson(invite: InviteView): z.infer<typeof inviteReply> {
  return {
    id: invite.id,
    email: invite.email,
    status: invite.status,
    role: { id: invite.role_id, name: invite.role_name },
    invited_by:
      invite.invited_by_user_id !== null && invite.invited_by_name !== null ? { user_id: invite.invited_by_user_id, name: invite.invited_by_name } : null,
    created_at: invite.created_at.toISOString(),
    expires_at: invite.expires_at.toISOString(),
    accepted_at: invite.accepted_at?.toISOString() ?? null,
    revoked_at: invite.revoked_at?.toISOString() ?? null,
  };
}
