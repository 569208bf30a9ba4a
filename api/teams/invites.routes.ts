import type { Context } from '../../shared/context.ts';
import { createInvite, findInvite, listInvites, resendInvite, revokeInvite } from '../../shared/domains/teams/invites.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { v1Router } from '../v1/authorize.ts';
import { dataEnvelope, listEnvelope, sendData, sendList } from '../v1/envelope.ts';
import { createInviteBody, inviteJson, inviteReply, invitesQuery, resendInviteBody } from './invites.schemas.ts';
import { principalOf } from '../v1/principal.ts';
import { notHeldBy, pathIdOf, scopedTeamId, teamErrors } from '../v1/team-scope.ts';
import { rowId } from '../openapi/path-parameters.ts';

const tags = ['invites'];
const security: Array<'bearerAuth' | 'sessionCookie'> = ['bearerAuth', 'sessionCookie'];
const notInvite = { description: "NOT_FOUND: the team is not the caller's, or it has no invite with this id", schema: teamErrors[404].schema };
const accepting =
  'The invitee accepts with the mailed token at `POST /api/v1/auth/register-from-invite` (a new account, or an existing one with ' +
  'its password), valid 7 days.';

/** Invitations into the caller's team (issue 4): list, create (mails the Door B token), resend, revoke. */
export function invitesRoutes(ctx: Context) {
  return v1Router()
    .route(
      {
        method: 'get',
        path: '/teams/:id/invites',
        params: { id: rowId('team') },
        operationId: 'invites.list',
        summary: "List the team's invites",
        description: 'Newest first, every status unless `status` is given. Never the token.',
        tags,
        security,
        permission: 'invites:read',
        query: invitesQuery,
        responses: {
          200: { description: 'One page of invites', schema: listEnvelope(inviteReply) },
          401: teamErrors[401],
          403: teamErrors[403],
          404: teamErrors[404],
          422: teamErrors[422],
        },
      },
      async (req, res) => {
        const teamId = scopedTeamId(req, principalOf(res));
        const query = parseOrFail(invitesQuery, req.query);
        const page = { page: query.page, pageSize: query.page_size };
        const { items, total } = await listInvites(ctx.db, teamId, page, query.status);
        sendList(req, res, items.map(inviteJson), page, total);
      },
    )
    .route(
      {
        method: 'post',
        path: '/teams/:id/invites',
        params: { id: rowId('team') },
        operationId: 'invites.create',
        summary: 'Invite someone into the team',
        description:
          `Mails an invitation to \`email\`. ${accepting} The caller must hold every grant of the role (else 403 with the first one ` +
          'missing in `details.permission`). An address that is already a member: 422 on `email`. A new invite replaces (revokes) ' +
          'any open one for the same address.',
        tags,
        security,
        permission: 'invites:create',
        body: createInviteBody,
        audit: { action: 'invite.created', target: 'invite', targetParam: 'invite_id' },
        responses: {
          201: { description: 'The invite; its e-mail is on its way', schema: dataEnvelope(inviteReply) },
          401: teamErrors[401],
          403: teamErrors[403],
          404: teamErrors[404],
          422: teamErrors[422],
        },
      },
      async (req, res) => {
        const principal = principalOf(res);
        const teamId = scopedTeamId(req, principal);
        const body = parseOrFail(createInviteBody, req.body);
        const invite = await createInvite(ctx, {
          teamId,
          email: body.email,
          roleId: body.role_id,
          invitedByUserId: principal.user_id,
          notHeld: notHeldBy(principal),
        });
        sendData(req, res, inviteJson(await findInvite(ctx.db, teamId, invite.id)), 201);
      },
    )
    .route(
      {
        method: 'post',
        path: '/teams/:id/invites/:invite_id/resend',
        params: { id: rowId('team'), invite_id: rowId('invite') },
        operationId: 'invites.resend',
        summary: 'Send an invite again',
        description:
          'Mails a new token and makes the invite valid for 7 more days; the previous token stops working at once. An expired invite ' +
          "can be resent (that is what this is for); an accepted or revoked one answers 409. The caller must hold the role's grants.",
        tags,
        security,
        permission: 'invites:create',
        body: resendInviteBody,
        audit: { action: 'invite.resent', target: 'invite' },
        responses: {
          200: { description: 'The invite, pending again', schema: dataEnvelope(inviteReply) },
          401: teamErrors[401],
          403: teamErrors[403],
          404: notInvite,
          409: { description: 'CONFLICT: the invite was accepted or revoked', schema: teamErrors[409].schema },
          422: teamErrors[422],
        },
      },
      async (req, res) => {
        const principal = principalOf(res);
        const teamId = scopedTeamId(req, principal);
        const inviteId = pathIdOf(req, 'invite_id', 'Invite');
        parseOrFail(resendInviteBody, req.body);
        sendData(req, res, inviteJson(await resendInvite(ctx, { teamId, inviteId, notHeld: notHeldBy(principal) })));
      },
    )
    .route(
      {
        method: 'delete',
        path: '/teams/:id/invites/:invite_id',
        params: { id: rowId('team'), invite_id: rowId('invite') },
        operationId: 'invites.revoke',
        summary: 'Revoke an invite',
        description:
          'Its token stops working at once. The invite stays listed with `status: revoked`; revoking it again changes nothing. An ' +
          'accepted invite answers 409: remove the member instead.',
        tags,
        security,
        permission: 'invites:delete',
        audit: { action: 'invite.revoked', target: 'invite' },
        responses: {
          200: { description: 'The revoked invite', schema: dataEnvelope(inviteReply) },
          401: teamErrors[401],
          403: teamErrors[403],
          404: notInvite,
          409: { description: 'CONFLICT: the invite was accepted', schema: teamErrors[409].schema },
        },
      },
      async (req, res) => {
        const teamId = scopedTeamId(req, principalOf(res));
        const inviteId = pathIdOf(req, 'invite_id', 'Invite');
        sendData(req, res, inviteJson(await revokeInvite(ctx.db, { teamId, inviteId })));
      },
    );
}
