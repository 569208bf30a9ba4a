import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';
import { Conflict, NotFound } from '../../errors.ts';
import { violatedConstraint } from './constraint-violations.ts';
import { refuseUnheld, type NotHeld } from './not-held.ts';
import { countOf, onePage, type Page } from './page.ts';

/** A role as the team sees it: a built-in one (shared by every team) or one of the team's own. */
export type RoleView = {
  id: number;
  name: string;
  description: string;
  permissions: string[];
  builtin: boolean;
  created_at: Date;
  updated_at: Date;
};

type RoleRow = Omit<RoleView, 'builtin'> & { team_id: number | null };

const roleColumns = ['id', 'team_id', 'name', 'description', 'permissions', 'created_at', 'updated_at'];

function toView({ team_id, ...row }: RoleRow): RoleView {
  return { ...row, permissions: [...row.permissions], builtin: team_id === null };
}

function rolesOf(db: Db | Knex.Transaction, teamId: number) {
  return db('roles').where((query) => query.whereNull('team_id').orWhere('team_id', teamId));
}

/** Built-in roles first (in their fixed order), then the team's own by name. */
export async function listRoles(db: Db, teamId: number, page: Page): Promise<{ items: RoleView[]; total: number }> {
  const total = await countOf(rolesOf(db, teamId), 'id');
  const rows: RoleRow[] = await onePage(
    rolesOf(db, teamId).orderByRaw('team_id IS NOT NULL').orderByRaw('CASE WHEN team_id IS NULL THEN id END').orderByRaw('lower(name)').orderBy('id'),
    page,
  ).select(roleColumns);
  return { items: rows.map(toView), total };
}

export async function findRole(db: Db | Knex.Transaction, teamId: number, roleId: number): Promise<RoleView> {
  const row: RoleRow | undefined = await rolesOf(db, teamId).where('id', roleId).first(roleColumns);
  if (!row) throw new NotFound('Role not found');
  return toView(row);
}

/**
 * Locks the team (every role change of a team is serialised on it, so names stay unique whatever
 * their case) and loads one of its own roles: a built-in role cannot be changed.
 */
async function lockCustomRole(trx: Knex.Transaction, teamId: number, roleId: number): Promise<RoleView> {
  await trx('teams').where({ id: teamId }).forUpdate().first('id');
  const role = await findRole(trx, teamId, roleId);
  if (role.builtin) throw new Conflict(`The built-in role ${role.name} cannot be changed or deleted; create a custom role instead`);
  return role;
}

/** Names are unique in the team regardless of case, and no custom role takes a built-in name. */
async function refuseTakenName(trx: Knex.Transaction, teamId: number, name: string, exceptRoleId?: number): Promise<void> {
  const taken = await rolesOf(trx, teamId)
    .whereRaw('lower(name) = lower(?)', [name])
    .modify((query) => {
      if (exceptRoleId !== undefined) query.whereNot('id', exceptRoleId);
    })
    .first('team_id');
  if (taken) throw new Conflict(taken.team_id === null ? `"${name}" is the name of a built-in role` : `The team already has a role named "${name}"`);
}

async function uniqueNames<T>(work: () => Promise<T>, name: string | undefined): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (violatedConstraint(error, '23505') === 'roles_team_id_name_unique') throw new Conflict(`The team already has a role named "${name}"`);
    throw error;
  }
}

/** The built-in roles (no team): each name with its grants, in the order they were made. */
export async function listBuiltinRoles(db: Db): Promise<Array<{ name: string; permissions: string[] }>> {
  return db('roles').whereNull('team_id').orderBy('id').select('name', 'permissions');
}

export type NewRole = { teamId: number; name: string; description: string; permissions: string[]; notHeld: NotHeld };

/** A custom role of the team; the caller must hold every grant it gives. */
export async function createRole(db: Db, input: NewRole): Promise<RoleView> {
  refuseUnheld(input.notHeld, input.permissions, 'create this role');
  return uniqueNames(
    () =>
      db.transaction(async (trx) => {
        await trx('teams').where({ id: input.teamId }).forUpdate().first('id');
        await refuseTakenName(trx, input.teamId, input.name);
        const [row] = await trx('roles')
          .insert({ team_id: input.teamId, name: input.name, description: input.description, permissions: [...new Set(input.permissions)] })
          .returning(roleColumns);
        return toView(row as RoleRow);
      }),
    input.name,
  );
}

export type RoleChanges = { name?: string; description?: string; permissions?: string[] };

/**
 * Changes a custom role. The caller must hold every grant the role has now and every one it is
 * given: nobody edits a role above their own. Members holding it get the change on their next request.
 */
export async function updateRole(db: Db, input: { teamId: number; roleId: number; changes: RoleChanges; notHeld: NotHeld }): Promise<RoleView> {
  const { changes } = input;
  return uniqueNames(
    () =>
      db.transaction(async (trx) => {
        const role = await lockCustomRole(trx, input.teamId, input.roleId);
        refuseUnheld(input.notHeld, role.permissions, `change the role ${role.name}`);
        if (changes.permissions !== undefined) refuseUnheld(input.notHeld, changes.permissions, `give the role ${role.name} these permissions`);
        if (changes.name !== undefined) await refuseTakenName(trx, input.teamId, changes.name, role.id);
        const [row] = await trx('roles')
          .where({ id: role.id })
          .update({
            ...(changes.name !== undefined ? { name: changes.name } : {}),
            ...(changes.description !== undefined ? { description: changes.description } : {}),
            ...(changes.permissions !== undefined ? { permissions: [...new Set(changes.permissions)] } : {}),
            updated_at: new Date(),
          })
          .returning(roleColumns);
        return toView(row as RoleRow);
      }),
    changes.name,
  );
}

/**
 * Deletes a custom role nobody holds and no open invite (pending or expired, which can still be
 * resent) would give. Accepted and revoked invites that named it go with it. The caller must hold
 * its grants, as for any change of the role.
 */
export async function deleteRole(db: Db, input: { teamId: number; roleId: number; notHeld: NotHeld }): Promise<RoleView> {
  try {
    return await db.transaction(async (trx) => {
      const role = await lockCustomRole(trx, input.teamId, input.roleId);
      refuseUnheld(input.notHeld, role.permissions, `delete the role ${role.name}`);
      const members = await countOf(trx('memberships').where({ role_id: role.id }), 'id');
      const invites = await countOf(trx('invites').where({ role_id: role.id }).whereNull('accepted_at').whereNull('revoked_at'), 'id');
      if (members > 0 || invites > 0) {
        throw new Conflict(
          `The role ${role.name} is in use (${members} member(s), ${invites} open invite(s)): give them another role or revoke the invites first`,
        );
      }
      await trx('invites').where({ role_id: role.id }).delete();
      await trx('roles').where({ id: role.id }).delete();
      return role;
    });
  } catch (error) {
    // A member or an invite given the role by a transaction that did not wait for the team lock.
    if (violatedConstraint(error, '23503') !== undefined) throw new Conflict('The role is in use: give its members another role or revoke its invites first');
    throw error;
  }
}
