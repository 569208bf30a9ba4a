import type { Knex } from 'knex';
import { Membership, Role, Team } from '../../db/models.ts';
import { NotFound, ValidationFailed } from '../../errors.ts';

/** Slugs: 3 to 40 lower-case letters, digits and inner hyphens; a few are kept for the platform. */
export const TEAM_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,38})[a-z0-9]$/;
const reservedSlugs = new Set(['admin', 'api', 'app', 'auth', 'berth', 'docs', 'help', 'mail', 'panel', 'root', 'status', 'support', 'system', 'www']);

export function assertTeamSlug(slug: string, field = 'team_slug'): void {
  if (!TEAM_SLUG_PATTERN.test(slug) || slug.includes('--')) {
    throw ValidationFailed.field(field, 'must be 3 to 40 lower-case letters, digits or single hyphens, starting and ending with a letter or digit');
  }
  if (reservedSlugs.has(slug)) throw ValidationFailed.field(field, 'is reserved');
}

export async function findBuiltinRole(trx: Knex | Knex.Transaction, name: string): Promise<Role> {
  const role = await Role.query(trx).whereNull('team_id').findOne({ name });
  if (!role) throw new NotFound(`Built-in role ${name} is missing; run the migrations`);
  return role;
}

/** A new team with its creator as owner. Built-in roles are shared rows (team_id null). */
export async function createTeamWithOwner(
  trx: Knex.Transaction,
  input: { name: string; slug: string; ownerUserId: number },
): Promise<{ team: Team; ownerRole: Role }> {
  assertTeamSlug(input.slug);
  const team = await Team.query(trx).insertAndFetch({ name: input.name, slug: input.slug, settings: {} });
  const ownerRole = await findBuiltinRole(trx, 'owner');
  await Membership.query(trx).insert({ team_id: team.id, user_id: input.ownerUserId, role_id: ownerRole.id, status: 'ACTIVE' });
  return { team, ownerRole };
}

/**
 * A role the team may hand out: a built-in one, or one of the team's own. Share-locked until the
 * transaction ends, so a concurrent deletion of the role waits instead of leaving a dangling grant.
 */
export async function findAssignableRole(trx: Knex | Knex.Transaction, teamId: number, roleId: number): Promise<Role> {
  const role = await Role.query(trx)
    .findById(roleId)
    .where((query) => query.whereNull('team_id').orWhere('team_id', teamId))
    .forShare();
  if (!role) throw ValidationFailed.field('role_id', 'no such role in this team');
  return role;
}
