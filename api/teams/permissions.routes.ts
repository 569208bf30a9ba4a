import { z } from 'zod';
import type { Context } from '../../shared/context.ts';
import { grants } from '../../shared/domains/rbac/permissions.ts';
import { listBuiltinRoles } from '../../shared/domains/teams/roles.ts';
import type { RouteDoc } from '../openapi/documented-router.ts';
import { v1Router } from '../v1/authorize.ts';
import { dataEnvelope, errorEnvelope, sendData } from '../v1/envelope.ts';
import { requirePrincipal } from '../v1/principal.ts';

export const catalogueEntry = z.object({
  permission: z.string().describe('`<resource>:<action>`, or `<resource>:*` when a built-in role grants every action of a resource'),
  description: z.string().optional(),
  routes: z.array(z.string()).describe('`METHOD /v1/path` of every route this permission lets through'),
  checked: z.boolean().describe('Whether a route checks it yet; false for a permission only a built-in role names so far'),
  roles: z.array(z.string()).describe('The built-in roles that grant it'),
});

export type CatalogueEntry = z.infer<typeof catalogueEntry>;

type BuiltinRole = { name: string; permissions: string[] };

/**
 * Every permission a route checks (from the route docs, so it cannot drift), plus what the built-in
 * roles name, so a permission granted before its routes exist is listed too (`checked: false`).
 * `*` is not an entry: it is the owner's grant of everything.
 */
export function buildCatalogue(prefix: string, docs: readonly RouteDoc[], roles: readonly BuiltinRole[]): CatalogueEntry[] {
  const checkedBy = docs.flatMap((doc) =>
    doc.permission === undefined ? [] : [{ permission: doc.permission, route: `${doc.method.toUpperCase()} ${prefix}${doc.path.replace(/:(\w+)/g, '{$1}')}` }],
  );
  const names = new Set([...checkedBy.map((check) => check.permission), ...roles.flatMap((role) => role.permissions).filter((name) => name !== '*')]);
  return [...names].sort().map((permission) => {
    const routes = checkedBy.filter((check) => grants([permission], check.permission)).map((check) => check.route);
    return {
      permission,
      ...(permission.endsWith(':*') ? { description: `Every action on ${permission.slice(0, -2)}` } : {}),
      routes: [...new Set(routes)].sort(),
      checked: routes.length > 0,
      roles: roles.filter((role) => grants(role.permissions, permission)).map((role) => role.name),
    };
  });
}

/** `GET /permissions`: the catalogue of the surface whose docs `surface.docs()` returns at request time. */
export function permissionsRoutes(ctx: Context, surface: { prefix: string; docs: () => readonly RouteDoc[] }) {
  return v1Router().route(
    {
      method: 'get',
      path: '/permissions',
      operationId: 'permissions.list',
      summary: 'The permission catalogue: every permission a route checks, with its routes',
      description:
        'Generated from the route declarations, so it lists exactly the checks the API makes, plus the permissions the built-in roles ' +
        'name (`checked: false` until a route checks them). Grants are exact, `<resource>:*` or `*`. Any authenticated caller may read it.',
      tags: ['permissions'],
      security: ['bearerAuth', 'sessionCookie'],
      responses: {
        200: { description: 'The catalogue, sorted by permission', schema: dataEnvelope(z.array(catalogueEntry)) },
        401: { description: 'AUTHENTICATION_ERROR', schema: errorEnvelope },
      },
    },
    requirePrincipal,
    async (req, res) => {
      sendData(req, res, buildCatalogue(surface.prefix, surface.docs(), await listBuiltinRoles(ctx.db)));
    },
  );
}
