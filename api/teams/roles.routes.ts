import type { Context } from '../../shared/context.ts';
import { createRole, deleteRole, findRole, listRoles, updateRole } from '../../shared/domains/teams/roles.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { v1Router } from '../v1/authorize.ts';
import { dataEnvelope, listEnvelope, pageQuery, sendData, sendList } from '../v1/envelope.ts';
import { principalOf } from '../v1/principal.ts';
import { createRoleBody, roleJson, roleReply, updateRoleBody } from './roles.schemas.ts';
import { notHeldBy, pathIdOf, scopedTeamId, teamErrors } from '../v1/team-scope.ts';
import { rowId } from '../openapi/path-parameters.ts';

const tags = ['roles'];
const security: Array<'bearerAuth' | 'sessionCookie'> = ['bearerAuth', 'sessionCookie'];
const notRole = { description: "NOT_FOUND: the team is not the caller's, or the role is neither built-in nor the team's", schema: teamErrors[404].schema };
const unheld = 'Nobody grants what they do not hold: a grant the caller lacks answers 403 with it in `details.permission`.';
const perRequest = "Permissions are read on every request: a change applies at once to every session and API token of the role's members.";

/** The roles of the caller's team: the built-in ones and the team's own (issue 4). */
export function rolesRoutes(ctx: Context) {
  return v1Router()
    .route(
      {
        method: 'get',
        path: '/teams/:id/roles',
        params: { id: rowId('team') },
        operationId: 'roles.list',
        summary: 'List the roles the team can give',
        description: "The built-in roles first (`builtin: true`: owner, admin, developer, billing, viewer), then the team's own by name.",
        tags,
        security,
        permission: 'roles:read',
        query: pageQuery,
        responses: {
          200: { description: 'One page of roles', schema: listEnvelope(roleReply) },
          401: teamErrors[401],
          403: teamErrors[403],
          404: teamErrors[404],
          422: teamErrors[422],
        },
      },
      async (req, res) => {
        const teamId = scopedTeamId(req, principalOf(res));
        const query = parseOrFail(pageQuery, req.query);
        const page = { page: query.page, pageSize: query.page_size };
        const { items, total } = await listRoles(ctx.db, teamId, page);
        sendList(req, res, items.map(roleJson), page, total);
      },
    )
    .route(
      {
        method: 'post',
        path: '/teams/:id/roles',
        params: { id: rowId('team') },
        operationId: 'roles.create',
        summary: 'Create a custom role',
        description: `${unheld} A name the team already has (whatever the case) or a built-in role's name answers 409.`,
        tags,
        security,
        permission: 'roles:create',
        body: createRoleBody,
        audit: { action: 'role.created', target: 'role', targetParam: 'role_id' },
        responses: {
          201: { description: 'The role', schema: dataEnvelope(roleReply) },
          401: teamErrors[401],
          403: teamErrors[403],
          404: teamErrors[404],
          409: { description: 'CONFLICT: the name is taken', schema: teamErrors[409].schema },
          422: teamErrors[422],
        },
      },
      async (req, res) => {
        const principal = principalOf(res);
        const teamId = scopedTeamId(req, principal);
        const body = parseOrFail(createRoleBody, req.body);
        const role = await createRole(ctx.db, {
          teamId,
          name: body.name,
          description: body.description,
          permissions: body.permissions,
          notHeld: notHeldBy(principal),
        });
        sendData(req, res, roleJson(role), 201);
      },
    )
    .route(
      {
        method: 'get',
        path: '/teams/:id/roles/:role_id',
        params: { id: rowId('team'), role_id: rowId('role') },
        operationId: 'roles.get',
        summary: 'One role',
        tags,
        security,
        permission: 'roles:read',
        responses: { 200: { description: 'The role', schema: dataEnvelope(roleReply) }, 401: teamErrors[401], 403: teamErrors[403], 404: notRole },
      },
      async (req, res) => {
        const teamId = scopedTeamId(req, principalOf(res));
        sendData(req, res, roleJson(await findRole(ctx.db, teamId, pathIdOf(req, 'role_id', 'Role'))));
      },
    )
    .route(
      {
        method: 'patch',
        path: '/teams/:id/roles/:role_id',
        params: { id: rowId('team'), role_id: rowId('role') },
        operationId: 'roles.update',
        summary: 'Change a custom role',
        description:
          `${unheld} The caller must also hold every grant the role has now. \`permissions\`, when given, replaces the list. ` +
          `${perRequest} Built-in roles cannot be changed: 409.`,
        tags,
        security,
        permission: 'roles:update',
        body: updateRoleBody,
        audit: { action: 'role.updated', target: 'role' },
        responses: {
          200: { description: 'The role as it is now', schema: dataEnvelope(roleReply) },
          401: teamErrors[401],
          403: teamErrors[403],
          404: notRole,
          409: { description: 'CONFLICT: a built-in role, or the name is taken', schema: teamErrors[409].schema },
          422: teamErrors[422],
        },
      },
      async (req, res) => {
        const principal = principalOf(res);
        const teamId = scopedTeamId(req, principal);
        const roleId = pathIdOf(req, 'role_id', 'Role');
        const changes = parseOrFail(updateRoleBody, req.body);
        sendData(req, res, roleJson(await updateRole(ctx.db, { teamId, roleId, changes, notHeld: notHeldBy(principal) })));
      },
    )
    .route(
      {
        method: 'delete',
        path: '/teams/:id/roles/:role_id',
        params: { id: rowId('team'), role_id: rowId('role') },
        operationId: 'roles.delete',
        summary: 'Delete a custom role',
        description:
          'Only a role no member holds and no open invite (pending or expired) gives; else 409. Accepted and revoked invites that ' +
          'named it are deleted with it. The caller must hold every grant of the role. Built-in roles cannot be deleted: 409.',
        tags,
        security,
        permission: 'roles:delete',
        audit: { action: 'role.deleted', target: 'role' },
        responses: {
          200: { description: 'The deleted role', schema: dataEnvelope(roleReply) },
          401: teamErrors[401],
          403: teamErrors[403],
          404: notRole,
          409: { description: 'CONFLICT: a built-in role, or one in use', schema: teamErrors[409].schema },
        },
      },
      async (req, res) => {
        const principal = principalOf(res);
        const teamId = scopedTeamId(req, principal);
        const roleId = pathIdOf(req, 'role_id', 'Role');
        sendData(req, res, roleJson(await deleteRole(ctx.db, { teamId, roleId, notHeld: notHeldBy(principal) })));
      },
    );
}
