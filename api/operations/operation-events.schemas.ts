import { z } from 'zod';
import { operationJson, operationStepJson } from './operations.schemas.ts';

const timestamp = z.string().describe('ISO 8601 UTC');
const eventId = z.number().int().describe('The `id:` line: increasing; send it back as Last-Event-ID to resume after it');

const operationEventData = z
  .object({
    id: z.uuid(),
    kind: z.string(),
    status: operationJson.shape.status,
    progress: z.number().int().min(0).max(100),
    target: z.object({ type: z.string(), id: z.string() }),
    error: operationJson.shape.error,
    started_at: timestamp.nullable(),
    finished_at: timestamp.nullable(),
    cancel_requested_at: timestamp.nullable(),
  })
  .meta({ id: 'OperationEventOperation', description: 'The operation as it stands after the change (created, status, progress, error)' });

const stepEventData = z
  .object({
    operation_id: z.uuid(),
    name: z.string(),
    position: z.number().int().describe('Its place in the operation, from 0'),
    status: operationStepJson.shape.status,
    attempts: z.number().int(),
    started_at: timestamp.nullable(),
    finished_at: timestamp.nullable(),
  })
  .meta({ id: 'OperationEventStep', description: "A step's new status" });

const logEventData = z
  .object({
    operation_id: z.uuid(),
    step: z.string().nullable(),
    stream: z.enum(['info', 'stdout', 'stderr']),
    line: z.string(),
    created_at: timestamp,
  })
  .meta({ id: 'OperationEventLog', description: 'One log line of the operation' });

const endEventData = z
  .object({ operation_id: z.uuid(), status: z.enum(['succeeded', 'failed', 'cancelled', 'deleted']) })
  .meta({ id: 'OperationEventEnd', description: 'The operation has ended and every event up to its end was sent; the server closes the stream' });

/** One event of a stream as its `id:`, `event:` and `data:` (JSON) lines carry it. */
export const operationEventJson = z
  .discriminatedUnion('event', [
    // each kind named: the SDK generators make one type per named schema
    z.object({ id: eventId, event: z.literal('operation'), data: operationEventData }).meta({ id: 'OperationChangedEvent' }),
    z.object({ id: eventId, event: z.literal('step'), data: stepEventData }).meta({ id: 'OperationStepEvent' }),
    z.object({ id: eventId, event: z.literal('log'), data: logEventData }).meta({ id: 'OperationLogEvent' }),
    z.object({ id: z.null().describe('No `id:` line'), event: z.literal('end'), data: endEventData }).meta({ id: 'OperationEndEvent' }),
  ])
  .meta({ id: 'OperationEvent', description: 'One Server-Sent Event of an operation event stream' });

/** `?last_event_id=`: Last-Event-ID for a first connection (EventSource cannot set headers). */
export const eventStreamQuery = z.object({
  last_event_id: z
    .string()
    .regex(/^\d{1,18}$/, { error: 'must be a whole number' })
    .optional()
    .describe('Resume after this event id, as the Last-Event-ID header does (the header wins when both are sent)'),
});

export const lastEventIdHeader = {
  name: 'Last-Event-ID',
  in: 'header',
  required: false,
  description: 'Resume after this event id: the events with a greater id are sent, none is lost or repeated. Browsers send it when they reconnect.',
  schema: { type: 'string', pattern: '^\\d{1,18}$' },
};

export const EVENT_STREAM_FORMAT =
  'A `text/event-stream` (Server-Sent Events): `retry: 2000` first, then one event per change, as `id: <event id>`, ' +
  '`event: operation | step | log | end` and `data: <JSON>` lines (schema `OperationEvent`), and a `: keepalive` comment every 15 s. ' +
  'Events are kept 24 hours.';
