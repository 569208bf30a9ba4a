import type { Db } from '../../db/knex.ts';
import { NotAuthenticated } from '../../errors.ts';

/** The spec's "current user" (part 2.1): the user as a member of one team. */
export type CurrentUser = {
  user_id: number;
  user_name: string;
  team_id: number;
  team_name: string;
  role_id: number;
  role_name: string;
  permissions: string[];
};

/** Loads the user in the team; a membership that is gone or not ACTIVE ends the answer with 401. */
export async function loadCurrentUser(db: Db, userId: number, teamId: number): Promise<CurrentUser> {
  const { operator: _operator, account: _account, ...user } = await loadPrincipalUser(db, userId, teamId);
  return user;
}

/** What /v1/me shows beside the current user: the sign-in address and whether two-factor authentication is on. */
export type AccountFacts = { email: string; twoFactorEnabled: boolean };

/**
 * The /v1 caller: the current user plus whether they are an operator (`users.platform_role`, staff
 * above teams who manage the fleet), read with the membership in one query (and kept by the principal cache, which drops it when any of
 * them changes), plus the account facts /v1/me shows.
 */
export async function loadPrincipalUser(db: Db, userId: number, teamId: number): Promise<CurrentUser & { operator: boolean; account: AccountFacts }> {
  const row = await db('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .join('teams as t', 't.id', 'm.team_id')
    .join('roles as r', 'r.id', 'm.role_id')
    .where({ 'm.user_id': userId, 'm.team_id': teamId, 'm.status': 'ACTIVE' })
    .first(
      'u.id as user_id',
      'u.name as user_name',
      't.id as team_id',
      't.name as team_name',
      'r.id as role_id',
      'r.name as role_name',
      'r.permissions',
      'u.platform_role',
      'u.email',
      'u.totp_enabled_at',
    );
  if (!row) throw new NotAuthenticated('No active membership in this team');
  return {
    user_id: row.user_id,
    user_name: row.user_name,
    team_id: row.team_id,
    team_name: row.team_name,
    role_id: row.role_id,
    role_name: row.role_name,
    permissions: [...row.permissions],
    operator: row.platform_role === 'operator',
    account: { email: row.email, twoFactorEnabled: Boolean(row.totp_enabled_at) },
  };
}

export async function loadAccountFacts(db: Db, userId: number): Promise<AccountFacts> {
  const row = await db('users').where({ id: userId }).first('email', 'totp_enabled_at');
  if (!row) throw new NotAuthenticated('No such user');
  return { email: row.email, twoFactorEnabled: Boolean(row.totp_enabled_at) };
}

/** The spec's team entries of the login answer (part 2.2). */
export type TeamEntry = { team_id: number; team_name: string; role_name: string; status: string };

export async function listTeamsOfUser(db: Db, userId: number): Promise<TeamEntry[]> {
  return db('memberships as m')
    .join('teams as t', 't.id', 'm.team_id')
    .join('roles as r', 'r.id', 'm.role_id')
    .where({ 'm.user_id': userId })
    .orderBy('t.name')
    .select('t.id as team_id', 't.name as team_name', 'r.name as role_name', 'm.status as status');
}
