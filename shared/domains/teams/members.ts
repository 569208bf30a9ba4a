import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';
import type { MembershipStatus, Role } from '../../db/models.ts';
import { Conflict, NotFound } from '../../errors.ts';
import { revokeSessions } from '../auth/sessions.ts';
import { refuseUnheld, type NotHeld } from './not-held.ts';
import { countOf, onePage, type Page } from './page.ts';
import { findAssignableRole } from './teams.ts';
import { emitEvent } from '../webhooks/events.ts';

type SessionStore = Parameters<typeof revokeSessions>[0];

/** A member as the team's lists show them. */
export type MemberView = {
  user_id: number;
  name: string;
  email: string;
  role_id: number;
  role_name: string;
  role_builtin: boolean;
  role_permissions: string[];
  status: MembershipStatus;
  joined_at: Date;
};

function membersOf(db: Db | Knex.Transaction, teamId: number) {
  return db('memberships as m').join('users as u', 'u.id', 'm.user_id').join('roles as r', 'r.id', 'm.role_id').where('m.team_id', teamId);
}

const memberColumns = [
  'u.id as user_id',
  'u.name',
  'u.email',
  'r.id as role_id',
  'r.name as role_name',
  'r.team_id',
  'r.permissions as role_permissions',
  'm.status',
  'm.created_at as joined_at',
];

type MemberRow = Omit<MemberView, 'role_builtin'> & { team_id: number | null };

function toView({ team_id, ...row }: MemberRow): MemberView {
  return { ...row, role_builtin: team_id === null, role_permissions: [...row.role_permissions] };
}

/** The team's members, longest-standing first. */
export async function listMembers(db: Db, teamId: number, page: Page): Promise<{ items: MemberView[]; total: number }> {
  const total = await countOf(membersOf(db, teamId), 'm.id');
  const rows: MemberRow[] = await onePage(membersOf(db, teamId).orderBy([{ column: 'm.created_at' }, { column: 'm.id' }]), page).select(memberColumns);
  return { items: rows.map(toView), total };
}

export async function findMember(db: Db | Knex.Transaction, teamId: number, userId: number): Promise<MemberView> {
  const row: MemberRow | undefined = await membersOf(db, teamId).where('m.user_id', userId).first(memberColumns);
  if (!row) throw new NotFound('Member not found');
  return toView(row);
}

/** The built-in `owner` role: the team's last active holder of it must stay. */
export function isOwnerRole(role: Pick<Role, 'team_id' | 'name'>): boolean {
  return role.team_id === null && role.name === 'owner';
}

/**
 * Locks the team row and loads the member: every change of membership or role takes this lock
 * first, so "is this the last active owner?" cannot be answered twice at once (two owners demoting
 * each other in parallel leave one owner, not none).
 */
async function lockTeamAndMember(trx: Knex.Transaction, teamId: number, userId: number): Promise<MemberView> {
  const team = await trx('teams').where({ id: teamId }).forUpdate().first('id');
  if (!team) throw new NotFound('Team not found');
  return findMember(trx, teamId, userId);
}

async function refuseLastOwner(trx: Knex.Transaction, teamId: number, member: MemberView, doing: string): Promise<void> {
  if (member.status !== 'ACTIVE' || !(member.role_builtin && member.role_name === 'owner')) return;
  const otherOwners = trx('memberships as m')
    .join('roles as r', 'r.id', 'm.role_id')
    .where({ 'm.team_id': teamId, 'm.status': 'ACTIVE', 'r.name': 'owner' })
    .whereNull('r.team_id')
    .whereNot('m.user_id', member.user_id);
  if ((await countOf(otherOwners, 'm.id')) === 0) throw new Conflict(`The team's last active owner cannot be ${doing}: make another member owner first`);
}

function emitMemberEvent(trx: Knex.Transaction, teamId: number, type: 'member.role_changed' | 'member.removed', member: MemberView): Promise<void> {
  return emitEvent(trx, { teamId, type, data: { member: { user_id: member.user_id, email: member.email, role: member.role_name } } });
}

/**
 * Gives a member another role. The caller must hold every grant of the member's current role and
 * of the new one (so an admin can neither demote an owner nor make anyone owner).
 */
export async function changeMemberRole(db: Db, input: { teamId: number; userId: number; roleId: number; notHeld: NotHeld }): Promise<MemberView> {
  return db.transaction(async (trx) => {
    const member = await lockTeamAndMember(trx, input.teamId, input.userId);
    const role = await findAssignableRole(trx, input.teamId, input.roleId);
    refuseUnheld(input.notHeld, member.role_permissions, `change the role of a member who is ${member.role_name}`);
    refuseUnheld(input.notHeld, role.permissions, `assign the role ${role.name}`);
    if (role.id === member.role_id) return member;
    if (!isOwnerRole(role)) await refuseLastOwner(trx, input.teamId, member, 'demoted');
    await trx('memberships').where({ team_id: input.teamId, user_id: input.userId }).update({ role_id: role.id, updated_at: new Date() });
    const changed = await findMember(trx, input.teamId, input.userId);
    await emitMemberEvent(trx, input.teamId, 'member.role_changed', changed);
    return changed;
  });
}

/**
 * Removes a member from the team. `notHeld` is the caller's check when they remove someone else
 * (they must hold the member's grants); null when a member leaves on their own. The member's sessions
 * in the team are revoked at once; their API tokens go with the membership (foreign-key cascade).
 */
export async function removeMember(store: SessionStore, input: { teamId: number; userId: number; notHeld: NotHeld | null }): Promise<MemberView> {
  const removed = await store.db.transaction(async (trx) => {
    const member = await lockTeamAndMember(trx, input.teamId, input.userId);
    if (input.notHeld) refuseUnheld(input.notHeld, member.role_permissions, `remove a member who is ${member.role_name}`);
    await refuseLastOwner(trx, input.teamId, member, 'removed');
    await trx('memberships').where({ team_id: input.teamId, user_id: input.userId }).delete();
    await emitMemberEvent(trx, input.teamId, 'member.removed', member);
    return member;
  });
  // Their requests already fail (the membership is read per request); revoking ends the sessions for good.
  const sessionIds: string[] = await store.db('sessions').where({ user_id: input.userId, team_id: input.teamId }).whereNull('revoked_at').pluck('id');
  if (sessionIds.length > 0) await revokeSessions(store, { ids: sessionIds }, 'membership_removed');
  return removed;
}
