import type { Context } from '../../shared/context.ts';
import { findActivity, listActivity } from '../../shared/domains/activity/list-activity.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { activityEntry, activityIdParams, activityQuery } from './activity.schemas.ts';
import { v1Router } from '../v1/authorize.ts';
import { dataEnvelope, errorEnvelope, listEnvelope, sendData, sendList } from '../v1/envelope.ts';
import { principalOf } from '../v1/principal.ts';
import { rowId } from '../openapi/path-parameters.ts';

const trail =
  "The team's audit trail: every mutating /v1 request that reached a route (with its answer's status, so refused attempts " +
  'too) and every auth event (sign-in, logout, refresh-token reuse, password reset, e-mail verification, registration, ' +
  'joining by invite, TOTP enabled, backup code used, device approved, suspicious and concurrent sign-in decisions). Events ' +
  'of an account itself (password, e-mail, TOTP, devices) appear in every team the user is an active member of. Entries ' +
  'cannot be changed or deleted: there is no route for it, and the database refuses it.';
const responses401And403 = {
  401: { description: 'AUTHENTICATION_ERROR', schema: errorEnvelope },
  403: { description: 'AUTHORIZATION_ERROR: the role (or API token) lacks `activity:read`', schema: errorEnvelope },
};

/** `GET /activity` and `GET /activity/{id}`: read-only, by design. */
export function activityRoutes(ctx: Context) {
  return v1Router()
    .route(
      {
        method: 'get',
        path: '/activity',
        operationId: 'activity.list',
        summary: "The team's audit trail, newest first",
        description:
          `${trail} Filters combine: \`actor_user_id\`, \`action\` (exact, or a prefix ending in \`*\`), \`target_type\`, ` +
          '`target_id`, `since` (inclusive) and `until` (exclusive). A bad filter answers 422 naming it.',
        tags: ['activity'],
        security: ['bearerAuth', 'sessionCookie'],
        permission: 'activity:read',
        query: activityQuery,
        responses: {
          200: { description: 'One page of entries', schema: listEnvelope(activityEntry) },
          ...responses401And403,
          422: { description: 'VALIDATION_ERROR', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const query = parseOrFail(activityQuery, req.query);
        const page = { page: query.page, pageSize: query.page_size };
        const { items, total } = await listActivity(
          ctx.db,
          principalOf(res).team_id,
          {
            actorUserId: query.actor_user_id,
            action: query.action,
            targetType: query.target_type,
            targetId: query.target_id,
            since: query.since,
            until: query.until,
          },
          page,
        );
        sendList(req, res, items, page, total);
      },
    )
    .route(
      {
        method: 'get',
        path: '/activity/:id',
        params: { id: rowId('audit trail entry') },
        operationId: 'activity.get',
        summary: "One entry of the team's audit trail",
        description: "Another team's entry answers 404, like an unknown one.",
        tags: ['activity'],
        security: ['bearerAuth', 'sessionCookie'],
        permission: 'activity:read',
        responses: {
          200: { description: 'The entry', schema: dataEnvelope(activityEntry) },
          ...responses401And403,
          404: { description: 'NOT_FOUND', schema: errorEnvelope },
          422: { description: 'VALIDATION_ERROR: the id is not a number', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const { id } = parseOrFail(activityIdParams, req.params);
        sendData(req, res, await findActivity(ctx.db, principalOf(res).team_id, id));
      },
    );
}
