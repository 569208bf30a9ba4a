import type { Context } from '../../shared/context.ts';
import { changeMemberRole, listMembers, removeMember } from '../../shared/domains/teams/members.ts';
import { PermissionDenied } from '../../shared/errors.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { v1Router } from '../v1/authorize.ts';
import { dataEnvelope, listEnvelope, pageQuery, sendData, sendList } from '../v1/envelope.ts';
import { changeMemberRoleBody, memberJson, memberReply } from './members.schemas.ts';
import { principalHolds, principalOf, requirePrincipal } from '../v1/principal.ts';
import { notHeldBy, pathIdOf, scopedTeamId, teamErrors } from '../v1/team-scope.ts';
import { rowId } from '../openapi/path-parameters.ts';

const tags = ['members'];
const security: Array<'bearerAuth' | 'sessionCookie'> = ['bearerAuth', 'sessionCookie'];
const lastOwner = "The team's last ACTIVE owner (built-in role `owner`) can be neither removed nor demoted: 409 CONFLICT.";
const coverage =
  "Nobody grants what they do not hold: the caller must hold every grant of the member's current role%s, else 403 " +
  '`AUTHORIZATION_ERROR` with the first grant missing in `details.permission`. So an admin can neither demote nor remove an ' +
  'owner, nor make anyone owner.';
const notMember = { description: "NOT_FOUND: the team is not the caller's, or the user is not a member of it", schema: teamErrors[404].schema };

/** The members of the caller's team: list, change a role, remove, leave (issue 4). */
export function membersRoutes(ctx: Context) {
  return (
    v1Router()
      .route(
        {
          method: 'get',
          path: '/teams/:id/members',
          params: { id: rowId('team') },
          operationId: 'members.list',
          summary: "List the team's members",
          description: 'Longest-standing first.',
          tags,
          security,
          permission: 'members:read',
          query: pageQuery,
          responses: {
            200: { description: 'One page of members', schema: listEnvelope(memberReply) },
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
          const { items, total } = await listMembers(ctx.db, teamId, page);
          sendList(req, res, items.map(memberJson), page, total);
        },
      )
      .route(
        {
          method: 'patch',
          path: '/teams/:id/members/:user_id',
          params: { id: rowId('team'), user_id: rowId("member's user") },
          operationId: 'members.update',
          summary: "Change a member's role",
          description:
            `${coverage.replace('%s', ' and of the new one')} ${lastOwner} The new role applies to the member's sessions and API tokens ` +
            "on their next request. A `role_id` that is neither built-in nor the team's own: 422.",
          tags,
          security,
          permission: 'members:update',
          body: changeMemberRoleBody,
          audit: { action: 'member.role_changed', target: 'member' },
          responses: {
            200: { description: 'The member with their new role', schema: dataEnvelope(memberReply) },
            401: teamErrors[401],
            403: teamErrors[403],
            404: notMember,
            409: { description: 'CONFLICT: the member is the last active owner', schema: teamErrors[409].schema },
            422: teamErrors[422],
          },
        },
        async (req, res) => {
          const principal = principalOf(res);
          const teamId = scopedTeamId(req, principal);
          const userId = pathIdOf(req, 'user_id', 'Member');
          const body = parseOrFail(changeMemberRoleBody, req.body);
          const member = await changeMemberRole(ctx.db, { teamId, userId, roleId: body.role_id, notHeld: notHeldBy(principal) });
          sendData(req, res, memberJson(member));
        },
      )
      // Before /members/:user_id, which would otherwise take "me" for an id.
      .route(
        {
          method: 'delete',
          path: '/teams/:id/members/me',
          params: { id: rowId('team') },
          operationId: 'members.leave',
          summary: 'Leave the team',
          description:
            `Removes the caller from the team they act in; a signed-in member needs no permission. An API token needs ` +
            '`members:delete` (a script does not make its creator leave on a lesser grant). ' +
            `${lastOwner} Every session of the caller in the team ends at once (this one included) and their API tokens of the team are deleted.`,
          tags,
          security,
          audit: { action: 'member.left', target: 'team' },
          responses: {
            200: { description: 'The membership that ended', schema: dataEnvelope(memberReply) },
            401: teamErrors[401],
            403: { description: 'AUTHORIZATION_ERROR: an API token without `members:delete`', schema: teamErrors[403].schema },
            404: teamErrors[404],
            409: { description: 'CONFLICT: the caller is the last active owner', schema: teamErrors[409].schema },
          },
        },
        requirePrincipal,
        async (req, res) => {
          const principal = principalOf(res);
          const teamId = scopedTeamId(req, principal);
          if (principal.apiTokenId !== null && !principalHolds(principal, 'members:delete')) throw PermissionDenied.missing('members:delete');
          sendData(req, res, memberJson(await removeMember(ctx, { teamId, userId: principal.user_id, notHeld: null })));
        },
      )
      .route(
        {
          method: 'delete',
          path: '/teams/:id/members/:user_id',
          params: { id: rowId('team'), user_id: rowId("member's user") },
          operationId: 'members.remove',
          summary: 'Remove a member',
          description:
            `${coverage.replace('%s', '')} ${lastOwner} The member's sessions in the team end at once and their API tokens of the team ` +
            'are deleted. To leave a team without `members:delete`, use `DELETE /v1/teams/{id}/members/me`.',
          tags,
          security,
          permission: 'members:delete',
          audit: { action: 'member.removed', target: 'member' },
          responses: {
            200: { description: 'The membership that ended', schema: dataEnvelope(memberReply) },
            401: teamErrors[401],
            403: teamErrors[403],
            404: notMember,
            409: { description: 'CONFLICT: the member is the last active owner', schema: teamErrors[409].schema },
          },
        },
        async (req, res) => {
          const principal = principalOf(res);
          const teamId = scopedTeamId(req, principal);
          const userId = pathIdOf(req, 'user_id', 'Member');
          // Removing oneself is leaving: nothing is handed on, so no grant check.
          const notHeld = userId === principal.user_id ? null : notHeldBy(principal);
          sendData(req, res, memberJson(await removeMember(ctx, { teamId, userId, notHeld })));
        },
      )
  );
}
