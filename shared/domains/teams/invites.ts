import type { Knex } from 'knex';
import { hashToken, randomToken } from '../../crypto/tokens.ts';
import type { Db } from '../../db/knex.ts';
import { Invite, Team, User } from '../../db/models.ts';
import { NotAuthenticated, ValidationFailed } from '../../errors.ts';
import { enqueue, type Queues } from '../../jobs/queues.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { inviteMail } from '../../mail/templates.ts';
import { normalizeEmail } from '../auth/identity.ts';
import { panelLink } from '../auth/links.ts';
import { findAssignableRole } from './teams.ts';

export const INVITE_TTL_SECONDS = 7 * 24 * 3600;

/**
 * Invites an e-mail address into a team with a role ("Door B"). The row is written now; the token is
 * minted by the mail job when it sends the invitation, so it never waits in a queue.
 */
export async function createInvite(
  deps: { db: Db; queues: Queues },
  input: { teamId: number; email: string; roleId: number; invitedByUserId: number | null },
): Promise<Invite> {
  const email = normalizeEmail(input.email);
  const invite = await deps.db.transaction(async (trx) => {
    await findAssignableRole(trx, input.teamId, input.roleId);
    const alreadyMember = await trx('memberships as m').join('users as u', 'u.id', 'm.user_id').where({ 'm.team_id': input.teamId, 'u.email': email }).first('m.id');
    if (alreadyMember) throw ValidationFailed.field('email', 'is already a member of this team');
    // A new invite replaces any open one for the same address.
    await Invite.query(trx).patch({ revoked_at: new Date() }).where({ team_id: input.teamId, email }).whereNull('accepted_at').whereNull('revoked_at');
    return Invite.query(trx).insertAndFetch({
      team_id: input.teamId,
      role_id: input.roleId,
      email,
      invited_by_user_id: input.invitedByUserId,
      expires_at: new Date(Date.now() + INVITE_TTL_SECONDS * 1000),
    });
  });
  await enqueue(deps.queues, 'mail.invite', { inviteId: invite.id });
  return invite;
}

/** Mints a fresh token for an open invite and mails it; a previous token stops working. */
export async function sendInvite(deps: { db: Db; mailer: Mailer; publicUrl: string }, inviteId: number): Promise<boolean> {
  const invite = await Invite.query(deps.db).findById(inviteId);
  if (!invite || invite.accepted_at || invite.revoked_at || invite.expires_at.getTime() <= Date.now()) return false;
  const team = await Team.query(deps.db).findById(invite.team_id);
  const inviter = invite.invited_by_user_id ? await User.query(deps.db).findById(invite.invited_by_user_id) : undefined;
  if (!team) return false;
  const token = randomToken(32);
  await Invite.query(deps.db).patch({ token_hash: hashToken(token) }).where({ id: invite.id });
  await deps.mailer.send(inviteMail(invite.email, team.name, inviter?.name ?? null, panelLink(deps.publicUrl, 'accept-invite', token)));
  return true;
}

/** Locks an open invite by its token for acceptance; anything else is an invalid token. */
export async function lockOpenInvite(trx: Knex.Transaction, token: string): Promise<Invite> {
  const invite = await Invite.query(trx).findOne({ token_hash: hashToken(token) }).forUpdate();
  if (!invite || invite.accepted_at || invite.revoked_at || invite.expires_at.getTime() <= Date.now()) {
    throw new NotAuthenticated('Invalid, expired or already used invite token');
  }
  return invite;
}
