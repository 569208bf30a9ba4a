import type { Db } from '../../db/knex.ts';
import { Team, type MembershipStatus, type TeamSettings } from '../../db/models.ts';
import { Conflict, NotFound } from '../../errors.ts';
import { violatedConstraint } from './constraint-violations.ts';
import { countOf, onePage, type Page } from './page.ts';
import { assertTeamSlug } from './teams.ts';

/** The settings as the auth gates read them: absent keys take these defaults. */
export const DEFAULT_TEAM_SETTINGS: Required<TeamSettings> = { new_device_approval: true, concurrent_sessions: 'approve' };

export function settingsWithDefaults(settings: TeamSettings | null | undefined): Required<TeamSettings> {
  return { ...DEFAULT_TEAM_SETTINGS, ...settings };
}

export async function findTeam(db: Db, teamId: number): Promise<Team> {
  const team = await Team.query(db).findById(teamId);
  if (!team) throw new NotFound('Team not found');
  return team;
}

export type TeamChanges = { name?: string; slug?: string; settings?: TeamSettings };

/**
 * Renames, re-slugs or changes the settings of a team. Settings are merged key by key under a row
 * lock, so two concurrent changes of different keys both stay. A taken slug is a conflict.
 */
export async function updateTeam(db: Db, teamId: number, changes: TeamChanges): Promise<Team> {
  if (changes.slug !== undefined) assertTeamSlug(changes.slug, 'slug');
  try {
    return await db.transaction(async (trx) => {
      const team = await Team.query(trx).findById(teamId).forUpdate();
      if (!team) throw new NotFound('Team not found');
      if (changes.slug !== undefined && changes.slug !== team.slug) {
        const taken = await Team.query(trx).findOne({ slug: changes.slug }).whereNot('id', teamId);
        if (taken) throw new Conflict(`The slug "${changes.slug}" is already taken`);
      }
      return Team.query(trx).patchAndFetchById(teamId, {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.slug !== undefined ? { slug: changes.slug } : {}),
        ...(changes.settings !== undefined ? { settings: { ...team.settings, ...changes.settings } } : {}),
        updated_at: new Date(),
      });
    });
  } catch (error) {
    // Two teams racing for one slug: the loser sees the unique index, not the check above.
    if (violatedConstraint(error, '23505') === 'teams_slug_unique') throw new Conflict(`The slug "${changes.slug}" is already taken`);
    throw error;
  }
}

/** One of the user's memberships, as `GET /v1/teams` lists them. */
export type TeamOfUser = {
  id: number;
  name: string;
  slug: string;
  role_id: number;
  role_name: string;
  status: MembershipStatus;
  joined_at: Date;
};

/** The user's memberships by team name; `onlyTeamId` narrows them to one team (an API token's). */
export async function listUserTeams(db: Db, userId: number, page: Page, onlyTeamId?: number): Promise<{ items: TeamOfUser[]; total: number }> {
  const base = db('memberships as m')
    .join('teams as t', 't.id', 'm.team_id')
    .where('m.user_id', userId)
    .modify((query) => {
      if (onlyTeamId !== undefined) query.where('m.team_id', onlyTeamId);
    });
  const total = await countOf(base.clone(), 'm.id');
  const items = await onePage(
    base
      .clone()
      .join('roles as r', 'r.id', 'm.role_id')
      .orderBy([{ column: 't.name' }, { column: 't.id' }]),
    page,
  ).select('t.id', 't.name', 't.slug', 'r.id as role_id', 'r.name as role_name', 'm.status', 'm.created_at as joined_at');
  return { items, total };
}
