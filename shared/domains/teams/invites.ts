import type { Knex } from 'knex';
import { hashToken, randomToken } from '../../crypto/tokens.ts';
import type { Db } from '../../db/knex.ts';
import { Invite, Team, User } from '../../db/models.ts';
import { Conflict, NotAuthenticated, NotFound, ValidationFailed } from '../../errors.ts';
import { enqueue, type Queues } from '../../jobs/queues.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { inviteMail } from '../../mail/templates.ts';
import { normalizeEmail } from '../auth/identity.ts';
import { panelLink } from '../auth/links.ts';
import { refuseUnheld, type NotHeld } from './not-held.ts';
import { countOf, onePage, type Page } from './page.ts';
import { findAssignableRole } from './teams.ts';

export const INVITE_TTL_SECONDS = 7 * 24 * 3600;

/**
 * Invites an e-mail address into a team with a role ("Door B"). The row is written now; the token is
 * minted by the mail job when it sends the invitation, so it never waits in a queue.
 */
export async function createInvite(
  deps: { db: Db; queues: Queues },
  input: { teamId: number; email: string; roleId: number; invitedByUserId: number | null; notHeld?: NotHeld },
): Promise<Invite> {
  const email = normalizeEmail(input.email);
  const invite = await deps.db.transaction(async (trx) => {
    const role = await findAssignableRole(trx, input.teamId, input.roleId);
    // Nobody grants what they do not hold, an invitation included.
    if (input.notHeld) refuseUnheld(input.notHeld, role.permissions, `invite with the role ${role.name}`);
    const alreadyMember = await trx('memberships as m')
      .join('users as u', 'u.id', 'm.user_id')
      .where({ 'm.team_id': input.teamId, 'u.email': email })
      .first('m.id');
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
  await Invite.query(deps.db)
    .patch({ token_hash: hashToken(token) })
    .where({ id: invite.id });
  await deps.mailer.send(inviteMail(invite.email, team.name, inviter?.name ?? null, panelLink(deps.publicUrl, 'accept-invite', token)));
  return true;
}

/** Locks an open invite by its token for acceptance; anything else is an invalid token. */
export async function lockOpenInvite(trx: Knex.Transaction, token: string): Promise<Invite> {
  const invite = await Invite.query(trx)
    .findOne({ token_hash: hashToken(token) })
    .forUpdate();
  if (!invite || invite.accepted_at || invite.revoked_at || invite.expires_at.getTime() <= Date.now()) {
    throw new NotAuthenticated('Invalid, expired or already used invite token');
  }
  return invite;
}

export type InviteStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

/** An invite as the team's lists show it: never its token. */
export type InviteView = {
  id: number;
  email: string;
  status: InviteStatus;
  role_id: number;
  role_name: string;
  invited_by_user_id: number | null;
  invited_by_name: string | null;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
};

export function inviteStatus(invite: Pick<Invite, 'accepted_at' | 'revoked_at' | 'expires_at'>, now = new Date()): InviteStatus {
  if (invite.accepted_at) return 'accepted';
  if (invite.revoked_at) return 'revoked';
  return invite.expires_at.getTime() <= now.getTime() ? 'expired' : 'pending';
}

function invitesOf(db: Db | Knex.Transaction, teamId: number) {
  return db('invites as i').join('roles as r', 'r.id', 'i.role_id').leftJoin('users as u', 'u.id', 'i.invited_by_user_id').where('i.team_id', teamId);
}

const inviteColumns = [
  'i.id',
  'i.email',
  'i.role_id',
  'r.name as role_name',
  'i.invited_by_user_id',
  'u.name as invited_by_name',
  'i.created_at',
  'i.expires_at',
  'i.accepted_at',
  'i.revoked_at',
];

type InviteRow = Omit<InviteView, 'status'>;

function toView(row: InviteRow): InviteView {
  return { ...row, status: inviteStatus(row) };
}

/** The SQL condition of each status, so a list can be filtered by it in the database. */
function whereStatus(query: Knex.QueryBuilder, status: InviteStatus): void {
  if (status === 'accepted') query.whereNotNull('i.accepted_at');
  else if (status === 'revoked') query.whereNull('i.accepted_at').whereNotNull('i.revoked_at');
  else {
    query.whereNull('i.accepted_at').whereNull('i.revoked_at');
    if (status === 'pending') query.where('i.expires_at', '>', new Date());
    else query.where('i.expires_at', '<=', new Date());
  }
}

/** The team's invites, newest first, optionally of one status. */
export async function listInvites(db: Db, teamId: number, page: Page, status?: InviteStatus): Promise<{ items: InviteView[]; total: number }> {
  const filtered = () => invitesOf(db, teamId).modify((query) => status && whereStatus(query, status));
  const total = await countOf(filtered(), 'i.id');
  const rows: InviteRow[] = await onePage(
    filtered().orderBy([
      { column: 'i.created_at', order: 'desc' },
      { column: 'i.id', order: 'desc' },
    ]),
    page,
  ).select(inviteColumns);
  return { items: rows.map(toView), total };
}

export async function findInvite(db: Db | Knex.Transaction, teamId: number, inviteId: number): Promise<InviteView> {
  const row: InviteRow | undefined = await invitesOf(db, teamId).where('i.id', inviteId).first(inviteColumns);
  if (!row) throw new NotFound('Invite not found');
  return toView(row);
}

async function lockInvite(trx: Knex.Transaction, teamId: number, inviteId: number): Promise<Invite> {
  const invite = await Invite.query(trx).findOne({ id: inviteId, team_id: teamId }).forUpdate();
  if (!invite) throw new NotFound('Invite not found');
  return invite;
}

/**
 * Sends an open invite again, valid for another INVITE_TTL_SECONDS: an expired one too, which is
 * what resending is for. The old token stops working now; the mail job mints and sends a new one.
 * The caller must hold the role's grants, as when inviting. Accepted or revoked: a conflict.
 */
export async function resendInvite(deps: { db: Db; queues: Queues }, input: { teamId: number; inviteId: number; notHeld: NotHeld }): Promise<InviteView> {
  const view = await deps.db.transaction(async (trx) => {
    const invite = await lockInvite(trx, input.teamId, input.inviteId);
    const status = inviteStatus(invite);
    if (status === 'accepted' || status === 'revoked') throw new Conflict(`The invite is ${status}; create a new one instead`);
    const role = await findAssignableRole(trx, input.teamId, invite.role_id);
    refuseUnheld(input.notHeld, role.permissions, `resend an invite with the role ${role.name}`);
    await Invite.query(trx)
      .patch({ token_hash: null, expires_at: new Date(Date.now() + INVITE_TTL_SECONDS * 1000) })
      .where({ id: invite.id });
    return findInvite(trx, input.teamId, invite.id);
  });
  await enqueue(deps.queues, 'mail.invite', { inviteId: view.id });
  return view;
}

/** Revokes an invite: its token stops working. Revoking a revoked one changes nothing; an accepted one is a conflict. */
export async function revokeInvite(db: Db, input: { teamId: number; inviteId: number }): Promise<InviteView> {
  return db.transaction(async (trx) => {
    const invite = await lockInvite(trx, input.teamId, input.inviteId);
    if (invite.accepted_at) throw new Conflict('The invite was accepted; remove the member instead');
    if (!invite.revoked_at) await Invite.query(trx).patch({ revoked_at: new Date(), token_hash: null }).where({ id: invite.id });
    return findInvite(trx, input.teamId, invite.id);
  });
}
