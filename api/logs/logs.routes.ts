import type { Request } from 'express';
import type { Context } from '../../shared/context.ts';
import { environmentLogsTopic, latestLogLineId, logLinesAfter, readLogLines, type LogLine } from '../../shared/domains/logs/environment-logs.ts';
import { findEnvironment } from '../../shared/domains/sites/environments.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { environmentParams } from '../openapi/path-parameters.ts';
import { resumeAfter, serveEventStream } from '../operations/event-stream.ts';
import { v1Router } from '../v1/authorize.ts';
import { dataEnvelope, errorEnvelope, sendData } from '../v1/envelope.ts';
import { principalOf } from '../v1/principal.ts';
import { pathIdOf } from '../v1/team-scope.ts';
import { LOG_STREAM_FORMAT, logLineJson, logsPageJson, logsQuery, logsStreamQuery } from './logs.schemas.ts';

const common = { tags: ['environments'], security: ['bearerAuth', 'sessionCookie'] as Array<'bearerAuth' | 'sessionCookie'>, params: environmentParams };
const errors = {
  403: { description: 'AUTHORIZATION_ERROR: `details.permission` is missing', schema: errorEnvelope },
  404: { description: "NOT_FOUND: no such site in the caller's team, or it has no such environment", schema: errorEnvelope },
};
/** A stream with nothing new looks again this often even without a wake-up (a lost Redis message delays, never loses, a line). */
const TAIL_BACKSTOP_MS = 5_000;

const lineView = (line: LogLine) => ({ id: line.id, time: line.time.toISOString(), line: line.line });

/**
 * An environment's logs (docs/api/logs.md): the edge's access and error logs and PHP's, as the
 * node's agent ships them; pages newest first, and a live tail as Server-Sent Events.
 */
export function logsRoutes(ctx: Context) {
  const environmentOf = async (req: Request, teamId: number) =>
    (await findEnvironment(ctx.db, teamId, pathIdOf(req, 'id', 'Site'), String(req.params.env))).environment;
  return v1Router()
    .route(
      {
        ...common,
        method: 'get',
        path: '/sites/:id/environments/:env/logs',
        operationId: 'environments.logs',
        summary: "Read an environment's access, error or PHP log",
        description:
          'Lines newest first, `lines` at a time; `next_cursor` pages to older ones. `since`/`until` bound the time, `search` keeps lines containing a text. ' +
          'Lines arrive within a few seconds of being written and are kept 7 days, at most 100,000 per environment and file.',
        query: logsQuery,
        permission: 'sites:logs',
        responses: {
          200: { description: 'A page of lines', schema: dataEnvelope(logsPageJson) },
          ...errors,
          422: {
            description: 'VALIDATION_ERROR: a query parameter is out of bounds, `until` is not after `since`, or `cursor` is not one this API gave',
            schema: errorEnvelope,
          },
        },
      },
      async (req, res) => {
        const query = parseOrFail(logsQuery, req.query);
        const environment = await environmentOf(req, principalOf(res).team_id);
        const page = await readLogLines(ctx.db, environment.id, {
          file: query.file,
          lines: query.lines,
          since: query.since ? new Date(query.since) : undefined,
          until: query.until ? new Date(query.until) : undefined,
          search: query.search,
          cursor: query.cursor,
        });
        sendData(req, res, { lines: page.lines.map(lineView), next_cursor: page.next_cursor });
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: '/sites/:id/environments/:env/logs/stream',
        operationId: 'environments.logsStream',
        summary: "Follow an environment's log as Server-Sent Events (a live tail)",
        description:
          `${LOG_STREAM_FORMAT} Without a resume point it starts now. Resuming: \`Last-Event-ID\` (or \`?last_event_id=\`) sends the lines stored after that id. ` +
          'A stream lasts at most `EVENT_STREAM_LIFETIME_MS` (default 5 minutes); the client reconnects and resumes.',
        query: logsStreamQuery,
        permission: 'sites:logs',
        responses: {
          200: { description: 'The live tail', eventStream: { description: LOG_STREAM_FORMAT, event: logLineJson } },
          ...errors,
          422: { description: 'VALIDATION_ERROR: `file` is missing or unknown, or Last-Event-ID is not a whole number', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const { file } = parseOrFail(logsStreamQuery, req.query);
        const resume = resumeAfter(req);
        const environment = await environmentOf(req, principalOf(res).team_id);
        let lastId = resume ?? (await latestLogLineId(ctx.db, environment.id, file));
        await serveEventStream(ctx, req, res, async (stop, write) => {
          while (!stop.aborted) {
            const lines = await logLinesAfter(ctx.db, environment.id, file, lastId);
            if (lines.length > 0) {
              await write(lines.map((line) => `id: ${line.id}\nevent: line\ndata: ${JSON.stringify(lineView(line))}\n\n`).join(''));
              lastId = lines.at(-1)!.id;
              continue;
            }
            // woken by a stored batch (api/agent's POST /logs); the backstop catches a lost wake-up
            await ctx.signals.wait(environmentLogsTopic(environment.id), TAIL_BACKSTOP_MS, stop);
          }
        });
      },
    );
}
