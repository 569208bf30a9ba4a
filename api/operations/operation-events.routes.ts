import type { Request, Response } from 'express';
import type { Context } from '../../shared/context.ts';
import { assertOperationVisible } from '../../shared/domains/operations/operations.ts';
import { followOperationEvents, latestOperationEventId, type EventScope, type OperationEvent } from '../../shared/domains/operations/operation-events.ts';
import { resumeAfter, serveEventStream } from './event-stream.ts';
import { uuid } from '../openapi/path-parameters.ts';
import { v1Router } from '../v1/authorize.ts';
import { errorEnvelope } from '../v1/envelope.ts';
import { actsAsOperator, principalOf } from '../v1/principal.ts';
import { EVENT_STREAM_FORMAT, eventStreamQuery, operationEventJson } from './operation-events.schemas.ts';

const forbidden = { description: 'AUTHORIZATION_ERROR: `details.permission` is missing', schema: errorEnvelope };
const RESUME =
  'Resuming: a browser sends the header `Last-Event-ID` when it reconnects; a first connection may pass `?last_event_id=` instead ' +
  '(EventSource cannot set headers). The events after that id are sent, none lost or repeated, from whichever API process answers. ' +
  'A stream lasts at most `EVENT_STREAM_LIFETIME_MS` (default 5 minutes) and then ends without an `end` event: the client ' +
  'reconnects and resumes, and its credentials are checked again (a revoked session or a removed member is refused then).';

/**
 * Answers with a Server-Sent Events stream of `scope`'s events after `afterId` until the client goes,
 * the process closes or, for one operation, the operation has ended (then an `end` event).
 */
async function streamEvents(ctx: Context, req: Request, res: Response, scope: EventScope, afterId: number): Promise<void> {
  await serveEventStream(ctx, req, res, async (stop, write) => {
    const ended = await followOperationEvents(ctx, scope, afterId, {
      signal: stop,
      send: (events: OperationEvent[]) =>
        write(events.map((event) => `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`).join('')),
    });
    if (ended && 'operationId' in scope) await write(`event: end\ndata: ${JSON.stringify({ operation_id: scope.operationId, status: ended.status })}\n\n`);
  });
}

/** Operation progress pushed to browsers (docs/api/operations.md "Live events"). */
export function operationEventsRoutes(ctx: Context) {
  return v1Router()
    .route(
      {
        method: 'get',
        path: '/operations/:id/events',
        params: { id: uuid('operation') },
        operationId: 'operations.events',
        summary: "Follow one operation's progress, steps and log lines as Server-Sent Events",
        description:
          `${EVENT_STREAM_FORMAT} Without a resume point, every kept event of the operation is sent from its start. ` +
          `Once the operation has ended and its last event was sent, an \`end\` event follows and the server closes the stream. ${RESUME}`,
        tags: ['operations'],
        security: ['bearerAuth', 'sessionCookie'],
        permission: 'operations:read',
        query: eventStreamQuery,
        responses: {
          200: { description: 'The event stream', eventStream: { description: EVENT_STREAM_FORMAT, event: operationEventJson } },
          403: forbidden,
          404: {
            description: "NOT_FOUND: no operation with this id in the caller's team (nor, for an operator, among the platform's)",
            schema: errorEnvelope,
          },
          422: { description: 'VALIDATION_ERROR: Last-Event-ID or `last_event_id` is not a whole number', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const id = String(req.params.id);
        const afterId = resumeAfter(req) ?? 0;
        const principal = principalOf(res);
        // only whether the caller may see it: the stream reads the rest
        await assertOperationVisible(ctx.db, { teamId: principal.team_id, operator: actsAsOperator(principal) }, id);
        await streamEvents(ctx, req, res, { operationId: id }, afterId);
      },
    )
    .route(
      {
        method: 'get',
        path: '/events',
        operationId: 'events.stream',
        summary: "Follow every operation of the caller's team as Server-Sent Events",
        description:
          `${EVENT_STREAM_FORMAT} Every event of the team's operations (platform operations are not included); the stream never ends by ` +
          `itself. Without a resume point it starts now: only events written after the connection are sent. ${RESUME}`,
        tags: ['operations'],
        security: ['bearerAuth', 'sessionCookie'],
        permission: 'operations:read',
        query: eventStreamQuery,
        responses: {
          200: { description: 'The event stream', eventStream: { description: EVENT_STREAM_FORMAT, event: operationEventJson } },
          403: forbidden,
          422: { description: 'VALIDATION_ERROR: Last-Event-ID or `last_event_id` is not a whole number', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const teamId = principalOf(res).team_id;
        const afterId = resumeAfter(req) ?? (await latestOperationEventId(ctx.db, teamId));
        await streamEvents(ctx, req, res, { teamId }, afterId);
      },
    );
}
