import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';
import { TeamEntitlements } from '../../db/models.ts';
import { NotFound, PaymentRequired } from '../../errors.ts';

/** Disk reserved for each environment against the plan's `max_disk_bytes` (until usage is measured). */
export const DISK_QUOTA_PER_ENVIRONMENT_BYTES = 5 * 1024 ** 3;

/**
 * Whether the team's plan allows `environments` more environments (a new site brings one). The
 * entitlements row is locked, so two creations at once cannot both take the last free site.
 */
export async function reserveForNewSite(trx: Knex.Transaction, teamId: number): Promise<TeamEntitlements> {
  const plan = await TeamEntitlements.query(trx).findById(teamId).forUpdate();
  if (!plan) throw new PaymentRequired('Your team has no plan that includes sites; choose a plan first', 'plan');
  const { count } = (await trx('sites').where({ team_id: teamId }).count({ count: '*' }).first()) as { count: string };
  if (Number(count) >= plan.max_sites)
    throw new PaymentRequired(
      `Your plan (${plan.plan}) allows ${plan.max_sites} site${plan.max_sites === 1 ? '' : 's'}; upgrade it or delete one`,
      'max_sites',
    );
  await reserveDisk(trx, plan, 1);
  return plan;
}

/** Each environment reserves DISK_QUOTA_PER_ENVIRONMENT_BYTES of the plan's disk. */
export async function reserveDisk(trx: Knex.Transaction, plan: TeamEntitlements, environments: number): Promise<void> {
  const { total } = (await trx('environments').where({ team_id: plan.team_id }).sum({ total: 'disk_quota_bytes' }).first()) as { total: string | null };
  if (Number(total ?? 0) + environments * DISK_QUOTA_PER_ENVIRONMENT_BYTES > Number(plan.max_disk_bytes)) {
    throw new PaymentRequired(
      `Your plan (${plan.plan}) has no disk left for another environment (${DISK_QUOTA_PER_ENVIRONMENT_BYTES / 1024 ** 3} GiB each)`,
      'max_disk_bytes',
    );
  }
}

/** The team's plan limits; NotFound while it has no plan. */
export async function findEntitlements(db: Db, teamId: number): Promise<TeamEntitlements> {
  const row = await TeamEntitlements.query(db).findById(teamId);
  if (!row) throw new NotFound('Your team has no plan yet');
  return row;
}

/** A plan's limits as an operator sets them. */
export type EntitlementLimits = Pick<
  TeamEntitlements,
  'plan' | 'max_sites' | 'max_disk_bytes' | 'environment_memory_bytes' | 'environment_cpu_millicores' | 'backups_scheduled_keep' | 'backups_manual_keep'
>;

/** Sets a team's limits (teams billed outside Berth; a subscription overwrites them when it becomes active). NotFound for no such team. */
export async function setEntitlements(db: Db, teamId: number, limits: EntitlementLimits): Promise<TeamEntitlements> {
  if (!(await db('teams').where({ id: teamId }).first('id'))) throw new NotFound('No such team');
  const [row] = await db('team_entitlements')
    .insert({ team_id: teamId, ...limits })
    .onConflict('team_id')
    .merge({ ...limits, updated_at: db.fn.now() })
    .returning('*');
  return row as TeamEntitlements;
}
