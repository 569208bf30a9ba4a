import { z } from 'zod';
import { addonIncrements } from '../../shared/domains/billing/addon-limits.ts';
import type { HeldAddon } from '../../shared/domains/billing/held-addons.ts';
import type { AddonRow } from '../../shared/domains/billing/rows.ts';
import { planJson } from './billing.schemas.ts';

const minor = (what: string) => z.number().int().describe(`${what}, in integer minor units of \`currency\` (cents)`);

export const addonsDescription =
  'Add-ons are extras bought by the unit on top of the plan (`extra-site`: one more site; `extra-disk-50`: 50 GiB more disk). ' +
  "Each unit adds its `adds` to the team's limits (`GET /v1/entitlements`). An add-on is billed like the plan (same currency and " +
  'interval): an increase applies at once with an invoice for the rest of the period by the second; a decrease or removal takes ' +
  'effect at the renewal (`pending_quantity`), whose invoice lists the plan and one line per add-on.';

const addonCode = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{1,48}[a-z0-9]$/, 'must be 3 to 50 lower-case letters, digits, - or _')
  .describe('What teams buy, in `PUT /v1/billing/subscription/addons/{code}`');

const increments = {
  extra_sites: z.number().int().min(0).max(1000).describe('Sites one unit adds to `max_sites`'),
  extra_disk_bytes: z
    .number()
    .int()
    .min(0)
    .max(2 ** 43)
    .describe('Bytes one unit adds to `max_disk_bytes`'),
  extra_backups_manual_keep: z.number().int().min(0).max(1000).describe('Manual backups one unit adds to those kept per environment'),
  extra_backups_scheduled_keep: z.number().int().min(0).max(1000).describe('Scheduled backups one unit adds to those kept per environment'),
};

const addonFields = {
  name: z.string().trim().min(1).max(100),
  price_minor: z.number().int().min(1).max(100_000_000).describe('The price of one unit per interval before tax, in minor units'),
};
const active = z.boolean().describe('Inactive add-ons cannot be bought or increased; teams holding one keep it');

/** Increments left out add nothing; at least one must be positive (else 422 naming the four). */
export const createAddonBody = z.strictObject({
  code: addonCode,
  ...addonFields,
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code in upper case')
    .describe('ISO 4217; only plans in this currency can have it'),
  interval: z.enum(['month', 'year']).describe('Only plans with this interval can have it'),
  extra_sites: increments.extra_sites.default(0),
  extra_disk_bytes: increments.extra_disk_bytes.default(0),
  extra_backups_manual_keep: increments.extra_backups_manual_keep.default(0),
  extra_backups_scheduled_keep: increments.extra_backups_scheduled_keep.default(0),
  active: active.default(true),
});

// No defaults: a field left out stays. Code, currency and interval never change (subscriptions hold it billed like their plan).
export const updateAddonBody = z
  .strictObject({ ...addonFields, ...increments, active })
  .partial()
  .refine((body) => Object.keys(body).length > 0, { message: 'name at least one field to change' });

const addsJson = z
  .object(Object.fromEntries(Object.keys(increments).map((key) => [key, z.number().int()])) as { [K in keyof typeof increments]: z.ZodNumber })
  .describe("What one unit adds to the plan's limits");

export const addonJson = z
  .object({
    id: z.number().int(),
    code: z.string(),
    name: z.string(),
    price_minor: minor('The price of one unit per interval before tax'),
    currency: z.string(),
    interval: z.enum(['month', 'year']),
    adds: addsJson,
    active: z.boolean(),
    updated_at: z.string().describe('ISO 8601 UTC'),
  })
  .meta({ id: 'Addon' });

export function addonView(addon: AddonRow): z.infer<typeof addonJson> {
  return {
    id: addon.id,
    code: addon.code,
    name: addon.name,
    price_minor: addon.price_minor,
    currency: addon.currency,
    interval: addon.interval,
    adds: addonIncrements(addon),
    active: addon.active,
    updated_at: addon.updated_at.toISOString(),
  };
}

// ---- the subscription's add-ons -----------------------------------------------------------------

export const addonQuantityBody = z.strictObject({
  quantity: z.number().int().min(1).max(100).describe('The units to hold, 1 to 100 (to remove the add-on, DELETE it)'),
});

export const heldAddonJson = z
  .object({
    code: z.string(),
    name: z.string(),
    quantity: z.number().int().describe('The units held now (and entitled)'),
    pending_quantity: z
      .number()
      .int()
      .nullable()
      .describe('A decrease chosen during the period: the units held from `current_period_end` (0: the add-on goes then)'),
    unit_price_minor: minor('The price of one unit per interval before tax'),
    currency: z.string(),
    interval: z.enum(['month', 'year']),
    adds: addsJson,
    active: z.boolean().describe('false: no longer sold (it can be kept or decreased, not increased)'),
  })
  .meta({ id: 'SubscriptionAddon' });

export function heldAddonView(addon: HeldAddon): z.infer<typeof heldAddonJson> {
  return {
    code: addon.code,
    name: addon.name,
    quantity: addon.quantity,
    pending_quantity: addon.pending_quantity,
    unit_price_minor: addon.price_minor,
    currency: addon.currency,
    interval: addon.interval,
    adds: addonIncrements(addon),
    active: addon.active,
  };
}

const limitsJson = planJson.shape.entitlements;

export const subscriptionLimitsJson = {
  entitlements: limitsJson
    .nullable()
    .describe("The subscription's limits now: the plan's plus each add-on's `adds` × quantity (null in a state that gives none: incomplete, unpaid, canceled)"),
  entitlements_at_renewal: limitsJson
    .nullable()
    .describe('Its limits from `current_period_end`, with a pending plan and pending add-on quantities applied (null when it will not renew)'),
};
