import { hashPassword, verifyPassword } from '../../crypto/passwords.ts';
import type { Db } from '../../db/knex.ts';
import { Invite, Membership, Role, User } from '../../db/models.ts';
import { ValidationFailed } from '../../errors.ts';
import { enqueue, type Queues } from '../../jobs/queues.ts';
import { recordActivity, type ActivityOrigin } from '../activity/record-activity.ts';
import { createTeamWithOwner } from '../teams/teams.ts';
import { lockOpenInvite } from '../teams/invites.ts';
import { assertPasswordPolicy, normalizeEmail } from './identity.ts';
import { emitEvent } from '../webhooks/events.ts';

export type OwnerRegistration = { email: string; password: string; name: string; teamName: string; teamSlug: string };

/**
 * Door A: a new user and a new team they own. The team starts without a paid plan; the user signs in
 * once the e-mail is verified (the verification mail is queued after the commit).
 */
export async function registerOwner(
  deps: { db: Db; queues: Queues },
  input: OwnerRegistration,
  origin: ActivityOrigin | null = null,
): Promise<{ userId: number; teamId: number }> {
  assertPasswordPolicy(input.password);
  const email = normalizeEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  const result = await withUniqueViolationsAsValidation(() =>
    deps.db.transaction(async (trx) => {
      const user = await User.query(trx).insertAndFetch({ email, name: input.name, password_hash: passwordHash });
      const { team } = await createTeamWithOwner(trx, { name: input.teamName, slug: input.teamSlug, ownerUserId: user.id });
      await recordActivity(trx, {
        teamId: team.id,
        actor: { userId: user.id, via: 'credentials' },
        action: 'team.created',
        target: { type: 'team', id: team.id },
        origin,
        metadata: { slug: team.slug },
      });
      return { userId: user.id, teamId: team.id };
    }),
  );
  await enqueue(deps.queues, 'mail.email-verification', { email });
  return result;
}

export type InviteRegistration = { inviteToken: string; email: string; password: string; name: string };

/**
 * Door B: joins the invite's team with the invite's role. The invite was mailed to this address, so
 * its use verifies the address. Someone who already has an account joins with their own password.
 */
export async function registerFromInvite(
  db: Db,
  input: InviteRegistration,
  origin: ActivityOrigin | null = null,
): Promise<{ userId: number; teamId: number; roleId: number; roleName: string; existingUser: boolean }> {
  const email = normalizeEmail(input.email);
  return withUniqueViolationsAsValidation(() =>
    db.transaction(async (trx) => {
      const invite = await lockOpenInvite(trx, input.inviteToken);
      if (invite.email !== email) throw ValidationFailed.field('email', 'does not match the address this invitation was sent to');
      let user = await User.query(trx).findOne({ email });
      const existingUser = Boolean(user);
      if (user) {
        if (!(await verifyPassword(user.password_hash, input.password))) {
          throw ValidationFailed.field('password', 'an account with this e-mail exists; give its password to join the team');
        }
      } else {
        assertPasswordPolicy(input.password);
        user = await User.query(trx).insertAndFetch({ email, name: input.name, password_hash: await hashPassword(input.password) });
      }
      const now = new Date();
      await User.query(trx).patch({ email_verified_at: now }).where({ id: user.id }).whereNull('email_verified_at');
      await Membership.query(trx).insert({ team_id: invite.team_id, user_id: user.id, role_id: invite.role_id, status: 'ACTIVE' });
      await Invite.query(trx).patch({ accepted_at: now, accepted_user_id: user.id }).where({ id: invite.id });
      const role = await Role.query(trx).findById(invite.role_id);
      await recordActivity(trx, {
        teamId: invite.team_id,
        actor: { userId: user.id, via: 'credentials' },
        action: 'member.joined',
        target: { type: 'member', id: user.id },
        origin,
        metadata: { role: role!.name, invite_id: invite.id, new_account: !existingUser },
      });
      await emitEvent(trx, { teamId: invite.team_id, type: 'member.joined', data: { member: { user_id: user.id, email, role: role!.name } } });
      return { userId: user.id, teamId: invite.team_id, roleId: invite.role_id, roleName: role!.name, existingUser };
    }),
  );
}

const uniqueConstraintFields: Record<string, { field: string; message: string }> = {
  users_email_unique: { field: 'email', message: 'is already registered' },
  teams_slug_unique: { field: 'team_slug', message: 'is already taken' },
  memberships_team_id_user_id_unique: { field: 'email', message: 'is already a member of this team' },
};

/** Two registrations racing for one e-mail or slug: the loser gets a validation error, not a 500. */
async function withUniqueViolationsAsValidation<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // Objection wraps the driver's error: the SQLSTATE is on nativeError, the constraint on both.
    const { code, constraint, nativeError } = error as { code?: string; constraint?: string; nativeError?: { code?: string } };
    const known = (code ?? nativeError?.code) === '23505' && constraint ? uniqueConstraintFields[constraint] : undefined;
    if (known) throw ValidationFailed.field(known.field, known.message);
    throw error;
  }
}
