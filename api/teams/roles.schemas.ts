import { z } from 'zod';
import { isValidGrant } from '../../shared/domains/rbac/permissions.ts';
import type { RoleView } from '../../shared/domains/teams/roles.ts';

const timestamp = z.iso.datetime().describe('ISO 8601, UTC');

/** How other resources name a role. */
export const roleRef = z.object({ id: z.number().int(), name: z.string() });

const roleName = z.string().trim().min(1).max(50).describe('1 to 50 characters; unique in the team whatever the case, and not the name of a built-in role');
const description = z.string().trim().max(500).describe('Up to 500 characters');
const permissions = z
  .array(z.string().refine(isValidGrant, { error: 'must be a permission such as sites:read, a resource wildcard such as sites:*, or *' }))
  .max(200)
  .describe('Grants: exact (`sites:read`), `<resource>:*` or `*`; each one held by the caller. See `GET /v1/permissions`.');

export const createRoleBody = z.strictObject({ name: roleName, description: description.default(''), permissions });

export const updateRoleBody = z.strictObject({ name: roleName.optional(), description: description.optional(), permissions: permissions.optional() });

export const roleReply = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  permissions: z.array(z.string()),
  builtin: z.boolean().describe('true: shared by every team (owner, admin, developer, billing, viewer), cannot be changed or deleted'),
  created_at: timestamp,
  updated_at: timestamp,
});

export function roleJson(role: RoleView): z.infer<typeof roleReply> {
  return { ...role, created_at: role.created_at.toISOString(), updated_at: role.updated_at.toISOString() };
}
