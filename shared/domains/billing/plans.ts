import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';
import { NotFound, ValidationFailed } from '../../errors.ts';
import { BillingConflict } from './billing-conflict.ts';
import type { BillingInterval, PlanRow } from './rows.ts';

export type PlanEntitlements = Pick<
  PlanRow,
  'max_sites' | 'max_disk_bytes' | 'environment_memory_bytes' | 'environment_cpu_millicores' | 'backups_scheduled_keep' | 'backups_manual_keep'
>;

/** A plan's limits, as `team_entitlements` and the API both carry them. */
export function planLimits(plan: PlanEntitlements): PlanEntitlements {
  return {
    max_sites: plan.max_sites,
    max_disk_bytes: plan.max_disk_bytes,
    environment_memory_bytes: plan.environment_memory_bytes,
    environment_cpu_millicores: plan.environment_cpu_millicores,
    backups_scheduled_keep: plan.backups_scheduled_keep,
    backups_manual_keep: plan.backups_manual_keep,
  };
}

export type NewPlan = PlanEntitlements & {
  code: string;
  name: string;
  price_minor: number;
  currency: string;
  interval: BillingInterval;
  trial_days: number;
  active: boolean;
};

/** What an operator may change: the code (what subscriptions and team_entitlements name) stays. */
export type PlanChange = Partial<Omit<NewPlan, 'code'>>;

/** The catalogue, cheapest first; teams see the active plans, operators all of them. */
export async function listPlans(db: Db, options: { includeInactive: boolean }): Promise<PlanRow[]> {
  const query = db<PlanRow>('plans').orderBy([
    { column: 'interval', order: 'asc' },
    { column: 'price_minor', order: 'asc' },
    { column: 'id', order: 'asc' },
  ]);
  if (!options.includeInactive) query.where({ active: true });
  return query;
}

export async function findPlan(db: Db | Knex.Transaction, id: number): Promise<PlanRow> {
  const plan = await db<PlanRow>('plans').where({ id }).first();
  if (!plan) throw new NotFound('Plan not found');
  return plan;
}

/** The plan a team may choose now: it exists and is active; otherwise the `plan` field is not valid. */
export async function choosablePlan(db: Db | Knex.Transaction, code: string): Promise<PlanRow> {
  const plan = await db<PlanRow>('plans').where({ code }).first();
  if (!plan) throw ValidationFailed.field('plan', `no plan "${code}"; GET /v1/billing/plans lists them`);
  if (!plan.active) throw ValidationFailed.field('plan', `the plan "${code}" is no longer offered`);
  return plan;
}

export async function createPlan(db: Db, input: NewPlan): Promise<PlanRow> {
  const [plan] = await db<PlanRow>('plans').insert(input).onConflict('code').ignore().returning('*');
  if (!plan) throw new BillingConflict('plan_code_taken', `A plan with the code "${input.code}" exists already`);
  return plan as PlanRow;
}

/** Changes apply to invoices made from now on and to entitlements granted from now on; nothing already granted moves. */
export async function updatePlan(db: Db, id: number, change: PlanChange): Promise<PlanRow> {
  const [plan] = await db<PlanRow>('plans')
    .where({ id })
    .update({ ...change, updated_at: db.fn.now() as unknown as Date })
    .returning('*');
  if (!plan) throw new NotFound('Plan not found');
  return plan as PlanRow;
}
