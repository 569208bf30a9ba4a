import { ValidationFailed } from '../../errors.ts';
import type { PlanEntitlements } from './plans.ts';
import type { AddonRow } from './rows.ts';

export type AddonIncrements = Pick<AddonRow, 'extra_sites' | 'extra_disk_bytes' | 'extra_backups_manual_keep' | 'extra_backups_scheduled_keep'>;

export const INCREMENT_FIELDS = ['extra_sites', 'extra_disk_bytes', 'extra_backups_manual_keep', 'extra_backups_scheduled_keep'] as const;

/** What one unit adds, as the API shows it. */
export function addonIncrements(addon: AddonIncrements): AddonIncrements {
  return {
    extra_sites: addon.extra_sites,
    extra_disk_bytes: addon.extra_disk_bytes,
    extra_backups_manual_keep: addon.extra_backups_manual_keep,
    extra_backups_scheduled_keep: addon.extra_backups_scheduled_keep,
  };
}

/** A unit that adds nothing would be billed for nothing: one increment at least must be positive. */
export function assertAddsSomething(addon: AddonIncrements): void {
  if (INCREMENT_FIELDS.some((field) => addon[field] > 0)) return;
  throw new ValidationFailed(INCREMENT_FIELDS.map((field) => ({ field, message: 'one of the extra_* increments must be positive' })));
}

/**
 * A subscription's limits: the plan's, plus each add-on's increments times its quantity. Memory and
 * CPU are per environment and come from the plan alone.
 */
export function limitsWithAddons(plan: PlanEntitlements, addons: ReadonlyArray<AddonIncrements & { quantity: number }>): PlanEntitlements {
  const sum = (field: (typeof INCREMENT_FIELDS)[number]) => addons.reduce((total, addon) => total + addon[field] * addon.quantity, 0);
  return {
    max_sites: plan.max_sites + sum('extra_sites'),
    max_disk_bytes: plan.max_disk_bytes + sum('extra_disk_bytes'),
    environment_memory_bytes: plan.environment_memory_bytes,
    environment_cpu_millicores: plan.environment_cpu_millicores,
    backups_scheduled_keep: plan.backups_scheduled_keep + sum('extra_backups_scheduled_keep'),
    backups_manual_keep: plan.backups_manual_keep + sum('extra_backups_manual_keep'),
  };
}

export type AddonQuantityChange = {
  /** now: an increase, entitled and invoiced at once; period_end: a decrease, at the renewal; unchanged: the quantity held. */
  effective: 'now' | 'period_end' | 'unchanged';
  quantity: number;
  pendingQuantity: number | null;
  /** false when the request repeats what is already recorded (nothing to write, no event). */
  changed: boolean;
};

/**
 * What asking for `requested` units does to an add-on held `current` times (0: not held) with a
 * decrease pending or not. Increases apply at once and drop a pending decrease; decreases wait for
 * the renewal, as plan downgrades do, so no credit has to be carried; asking for the current
 * quantity drops a pending decrease.
 */
export function addonQuantityChange(current: number, pending: number | null, requested: number): AddonQuantityChange {
  if (requested > current) return { effective: 'now', quantity: requested, pendingQuantity: null, changed: true };
  if (requested < current) return { effective: 'period_end', quantity: current, pendingQuantity: requested, changed: pending !== requested };
  return { effective: 'unchanged', quantity: current, pendingQuantity: null, changed: pending !== null };
}
