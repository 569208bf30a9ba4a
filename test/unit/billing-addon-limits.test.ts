import { describe, expect, it } from 'vitest';
import { addonQuantityChange, assertAddsSomething, limitsWithAddons } from '../../shared/domains/billing/addon-limits.ts';
import { addonsAtRenewal, type HeldAddon } from '../../shared/domains/billing/held-addons.ts';
import { ValidationFailed } from '../../shared/errors.ts';

const GiB = 1024 ** 3;
const starter = {
  max_sites: 1,
  max_disk_bytes: 10 * GiB,
  environment_memory_bytes: 512 * 1024 ** 2,
  environment_cpu_millicores: 1000,
  backups_scheduled_keep: 14,
  backups_manual_keep: 10,
};
const none = { extra_sites: 0, extra_disk_bytes: 0, extra_backups_manual_keep: 0, extra_backups_scheduled_keep: 0 };

/** A held add-on row: `quantity` now, `pending` from the renewal, adding `adds` per unit. */
function heldAddon(code: string, quantity: number, pending: number | null, adds: Partial<typeof none>): HeldAddon {
  const at = new Date('2026-11-01T00:00:00Z');
  return {
    id: code.length,
    code,
    name: code,
    price_minor: 500,
    currency: 'EUR',
    interval: 'month',
    ...none,
    ...adds,
    active: true,
    created_at: at,
    updated_at: at,
    quantity,
    pending_quantity: pending,
  };
}

describe('limitsWithAddons', () => {
  it("adds each add-on's increments times its quantity to the plan's limits; memory and CPU stay the plan's", () => {
    const limits = limitsWithAddons(starter, [
      { ...none, extra_sites: 1, quantity: 3 },
      { ...none, extra_disk_bytes: 50 * GiB, quantity: 2 },
      { ...none, extra_backups_manual_keep: 5, extra_backups_scheduled_keep: 7, quantity: 1 },
    ]);
    expect(limits).toEqual({ ...starter, max_sites: 4, max_disk_bytes: 110 * GiB, backups_manual_keep: 15, backups_scheduled_keep: 21 });
  });

  it("is the plan's limits without add-ons", () => {
    expect(limitsWithAddons(starter, [])).toEqual(starter);
  });

  it('stays exact at the largest values the API accepts (100 units of 8 TiB on a 1 PiB plan)', () => {
    const limits = limitsWithAddons({ ...starter, max_disk_bytes: 2 ** 50 }, [{ ...none, extra_disk_bytes: 2 ** 43, quantity: 100 }]);
    expect(limits.max_disk_bytes).toBe(2 ** 50 + 100 * 2 ** 43);
    expect(Number.isSafeInteger(limits.max_disk_bytes)).toBe(true);
  });
});

describe('addonQuantityChange', () => {
  it('applies an increase at once and drops a pending decrease', () => {
    expect(addonQuantityChange(0, null, 2)).toEqual({ effective: 'now', quantity: 2, pendingQuantity: null, changed: true });
    expect(addonQuantityChange(3, 1, 5)).toEqual({ effective: 'now', quantity: 5, pendingQuantity: null, changed: true });
  });

  it('makes a decrease wait for the renewal; asking for the same decrease again changes nothing', () => {
    expect(addonQuantityChange(3, null, 1)).toEqual({ effective: 'period_end', quantity: 3, pendingQuantity: 1, changed: true });
    expect(addonQuantityChange(3, 0, 1)).toEqual({ effective: 'period_end', quantity: 3, pendingQuantity: 1, changed: true });
    expect(addonQuantityChange(3, 1, 1)).toEqual({ effective: 'period_end', quantity: 3, pendingQuantity: 1, changed: false });
  });

  it('keeps the current quantity: a pending decrease is dropped, without one nothing changes', () => {
    expect(addonQuantityChange(3, 1, 3)).toEqual({ effective: 'unchanged', quantity: 3, pendingQuantity: null, changed: true });
    expect(addonQuantityChange(3, null, 3)).toEqual({ effective: 'unchanged', quantity: 3, pendingQuantity: null, changed: false });
  });
});

describe('addonsAtRenewal', () => {
  it('applies pending quantities and leaves out those going to 0', () => {
    const addons = [
      heldAddon('extra-site', 3, 1, { extra_sites: 1 }),
      heldAddon('extra-disk-50', 1, 0, { extra_disk_bytes: 50 * GiB }),
      heldAddon('backups', 2, null, { extra_backups_manual_keep: 5 }),
    ];
    expect(addonsAtRenewal(addons).map((addon) => [addon.code, addon.quantity, addon.pending_quantity])).toEqual([
      ['extra-site', 1, null],
      ['backups', 2, null],
    ]);
    expect(addons[0]!.quantity).toBe(3); // the held rows are not changed
  });
});

describe('assertAddsSomething', () => {
  it('refuses a unit that adds nothing, naming the four increments', () => {
    expect(() => assertAddsSomething({ ...none, extra_backups_scheduled_keep: 1 })).not.toThrow();
    try {
      assertAddsSomething(none);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationFailed);
      expect((error as ValidationFailed).problems.map((problem) => problem.field)).toEqual([
        'extra_sites',
        'extra_disk_bytes',
        'extra_backups_manual_keep',
        'extra_backups_scheduled_keep',
      ]);
    }
  });
});
