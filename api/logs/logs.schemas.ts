import { z } from 'zod';
import { ENVIRONMENT_LOG_FILES } from '../../shared/agent-protocol/protocol.ts';
import { LOG_PAGE_MAX_LINES } from '../../shared/domains/logs/environment-logs.ts';

const file = z
  .enum(ENVIRONMENT_LOG_FILES)
  .describe("Which log: `access` (the edge's, one JSON object a line), `error` (the edge's nginx errors) or `php` (PHP's errors and warnings)");

export const logsQuery = z.object({
  file,
  lines: z
    .string()
    .regex(/^\d{1,4}$/, { error: 'must be a whole number' })
    .transform(Number)
    .pipe(z.number().int().min(1).max(LOG_PAGE_MAX_LINES))
    .default(100)
    .describe(`How many lines, 1 to ${LOG_PAGE_MAX_LINES} (default 100)`),
  since: z.iso.datetime({ offset: true }).optional().describe('Only lines at or after this time (ISO 8601)'),
  until: z.iso.datetime({ offset: true }).optional().describe('Only lines before this time (ISO 8601)'),
  search: z.string().min(1).max(200).optional().describe('Only lines containing this text (plain text, not a pattern; case-insensitive)'),
  cursor: z.string().min(1).max(200).optional().describe("The previous page's `next_cursor`: the older lines after it"),
});

export const logsStreamQuery = z.object({
  file,
  last_event_id: z
    .string()
    .regex(/^\d{1,18}$/, { error: 'must be a whole number' })
    .optional()
    .describe('Resume after this line id, as the Last-Event-ID header does (the header wins when both are sent)'),
});

export const logLineJson = z
  .object({
    id: z.number().int().describe('Increasing as lines are stored; the live tail sends it as the event id'),
    time: z.string().describe("ISO 8601 UTC: the line's own time where it has one, else when the agent read it"),
    line: z.string(),
  })
  .meta({ id: 'EnvironmentLogLine' });

export const logsPageJson = z.object({
  lines: z.array(logLineJson).describe('Newest first'),
  next_cursor: z.string().nullable().describe('Pass as `cursor` for the older lines; null when there are none'),
});

export const LOG_STREAM_FORMAT =
  'A `text/event-stream` (Server-Sent Events): `retry: 2000` first, then one `line` event per new line of the file, as `id: <line id>`, ' +
  '`event: line` and `data: <JSON>` (schema `EnvironmentLogLine`), and a `: keepalive` comment every 15 s.';
