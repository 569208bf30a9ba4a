import type { Context } from '../../shared/context.ts';
import { findTeam, listUserTeams, updateTeam } from '../../shared/domains/teams/team-profile.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { v1Router } from '../v1/authorize.ts';
import { dataEnvelope, listEnvelope, pageQuery, sendData, sendList } from '../v1/envelope.ts';
import { principalOf, requirePrincipal } from '../v1/principal.ts';
import { scopedTeamId, teamErrors } from '../v1/team-scope.ts';
import { myTeamJson, myTeamReply, teamJson, teamReply, updateTeamBody } from './teams.schemas.ts';
import { rowId } from '../openapi/path-parameters.ts';

const tags = ['teams'];
const security: Array<'bearerAuth' | 'sessionCookie'> = ['bearerAuth', 'sessionCookie'];
const oneTeam =
  'A caller acts in one team, the team of their session or API token: any other `id` answers 404, even a team the user also ' +
  'belongs to. To act in another team, sign in to it (`team_id` at `POST /v1/auth/login` or at the session exchange).';

/** The caller's teams, and the team they act in (issue 4). */
export function teamsRoutes(ctx: Context) {
  return v1Router()
    .route(
      {
        method: 'get',
        path: '/teams',
        operationId: 'teams.list',
        summary: 'List your teams',
        description:
          "Your memberships, by team name, with your role and the membership's status; `current` marks the team this request acts in. " +
          'No permission is needed. An API token sees only its own team.',
        tags,
        security,
        query: pageQuery,
        responses: { 200: { description: 'One page of your teams', schema: listEnvelope(myTeamReply) }, 401: teamErrors[401], 422: teamErrors[422] },
      },
      requirePrincipal,
      async (req, res) => {
        const query = parseOrFail(pageQuery, req.query);
        const page = { page: query.page, pageSize: query.page_size };
        const principal = principalOf(res);
        // A token is scoped to one team: it does not reveal which other teams its creator belongs to.
        const onlyTeam = principal.apiTokenId !== null ? principal.team_id : undefined;
        const { items, total } = await listUserTeams(ctx.db, principal.user_id, page, onlyTeam);
        sendList(
          req,
          res,
          items.map((team) => myTeamJson(team, principal.team_id)),
          page,
          total,
        );
      },
    )
    .route(
      {
        method: 'get',
        path: '/teams/:id',
        params: { id: rowId('team') },
        operationId: 'teams.get',
        summary: 'The team you act in',
        description: oneTeam,
        tags,
        security,
        permission: 'teams:read',
        responses: { 200: { description: 'The team', schema: dataEnvelope(teamReply) }, 401: teamErrors[401], 403: teamErrors[403], 404: teamErrors[404] },
      },
      async (req, res) => {
        sendData(req, res, teamJson(await findTeam(ctx.db, scopedTeamId(req, principalOf(res)))));
      },
    )
    .route(
      {
        method: 'patch',
        path: '/teams/:id',
        params: { id: rowId('team') },
        operationId: 'teams.update',
        summary: 'Rename the team, change its slug or its security settings',
        description:
          `${oneTeam}\n\nEvery field is optional. \`settings\` is merged key by key into the current settings and applies to the next ` +
          'sign-in. Unknown keys, at any level, answer 422. A slug another team has answers 409; a malformed or reserved one 422.',
        tags,
        security,
        permission: 'teams:update',
        body: updateTeamBody,
        audit: { action: 'team.updated', target: 'team' },
        responses: {
          200: { description: 'The team as it is now', schema: dataEnvelope(teamReply) },
          401: teamErrors[401],
          403: teamErrors[403],
          404: teamErrors[404],
          409: { description: 'CONFLICT: the slug is taken', schema: teamErrors[409].schema },
          422: teamErrors[422],
        },
      },
      async (req, res) => {
        const teamId = scopedTeamId(req, principalOf(res));
        const body = parseOrFail(updateTeamBody, req.body);
        sendData(req, res, teamJson(await updateTeam(ctx.db, teamId, body)));
      },
    );
}
