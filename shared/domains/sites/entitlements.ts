import type { Knex } from 'knex';
import { TeamEntitlements } from '../../db/models.ts';
import { PaymentRequired } from '../../errors.ts';

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
  if (Number(count) >= plan.max_sites) throw new PaymentRequired(`Your plan (${plan.plan}) allows ${plan.max_sites} site${plan.max_sites === 1 ? '' : 's'}; upgrade it or delete one`, 'max_sites');
  await reserveDisk(trx, plan, 1);
  return plan;
}

/** Each environment reserves DISK_QUOTA_PER_ENVIRONMENT_BYTES of the plan's disk. */
export async function reserveDisk(trx: Knex.Transaction, plan: TeamEntitlements, environments: number): Promise<void> {
  const { total } = (await trx('environments').where({ team_id: plan.team_id }).sum({ total: 'disk_quota_bytes' }).first()) as { total: string | null };
  if (Number(total ?? 0) + environments * DISK_QUOTA_PER_ENVIRONMENT_BYTES > Number(plan.max_disk_bytes)) {
    throw new PaymentRequired(`Your plan (${plan.plan}) has no disk left for another environment (${DISK_QUOTA_PER_ENVIRONMENT_BYTES / 1024 ** 3} GiB each)`, 'max_disk_bytes');
  }
}
