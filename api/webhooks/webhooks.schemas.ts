import { z } from 'zod';
import type { AttemptRow, EndpointRow } from '../../shared/domains/webhooks/endpoint-rows.ts';
import type { DeliveryView } from '../../shared/domains/webhooks/deliveries.ts';
import { MAX_ENDPOINTS_PER_TEAM } from '../../shared/domains/webhooks/endpoints.ts';
import { pageQuery } from '../v1/envelope.ts';

export const webhooksDescription =
  `Webhooks: Berth POSTs each event of the team to its endpoints (at most ${MAX_ENDPOINTS_PER_TEAM}), JSON \`{type, timestamp, data}\`, ` +
  "signed the Standard Webhooks way (standardwebhooks.com): headers `webhook-id` (the event's id, the same on every retry and " +
  'redelivery: deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of ' +
  '`<id>.<timestamp>.<body>` under the base64 key after `whsec_`; after a rotation both secrets sign, space-separated, until the ' +
  'old one expires). Only a 2xx answer counts; redirects are not followed. A failed delivery is tried again after 5 s, 5 min, ' +
  '30 min, 2 h, 5 h, 10 h and 10 h (±20 % jitter; about a day in all). An answer of 410 Gone disables the endpoint at once; so ' +
  "does failing every attempt for 5 days; either way the team's owners get an e-mail. Each attempt is logged with excerpts of " +
  'the request and the answer (4 KiB), and any delivery can be sent again. Endpoints must be public: loopback, private, ' +
  'link-local and other internal addresses are refused when the URL is saved and again when each attempt connects. The events ' +
  "and their `data` are in this document's `webhooks` section and at `GET /v1/webhooks/event-types`.";

// eslint-disable-next-line no-control-regex -- the control characters are what it refuses
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;

/** Text without control characters (Postgres refuses NUL; the rest has no business in a label). */
const plainText = (max: number) => z.string().max(max).regex(NO_CONTROL_CHARACTERS, 'must not contain control characters');

const eventTypes = z.array(plainText(100).min(1)).max(100).describe('Event types (`site.created`) or groups (`site.*`); empty or absent: every event');

export const createEndpointBody = z.strictObject({
  url: plainText(2000).min(1).describe('http or https URL on the public internet'),
  description: plainText(500).optional(),
  event_types: eventTypes.optional(),
});

export const updateEndpointBody = z.strictObject({
  url: plainText(2000).min(1).optional(),
  description: plainText(500).optional(),
  event_types: eventTypes.optional(),
  enabled: z.boolean().optional().describe('false disables it (pending deliveries fail); true enables it again and forgets its failures'),
});

export const rotateSecretBody = z.strictObject({
  expire_previous_in_seconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 86_400)
    .optional()
    .describe('How long the old secret keeps signing beside the new one (default 86400; 0: not at all)'),
});

export const endpointJson = z
  .object({
    id: z.number().int(),
    url: z.string(),
    description: z.string(),
    event_types: z.array(z.string()),
    enabled: z.boolean(),
    disabled_reason: z.enum(['manual', 'gone', 'failing']).nullable().describe('Why it is disabled: by a member, it answered 410, or it failed for days'),
    disabled_at: z.string().nullable(),
    failing_since: z.string().nullable().describe('The first failed attempt since its last success'),
    previous_secret_expires_at: z.string().nullable().describe('Until when the secret before the last rotation still signs'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'WebhookEndpoint' });

export const endpointWithSecretJson = endpointJson
  .extend({ secret: z.string().describe('The signing secret, `whsec_…`') })
  .meta({ id: 'WebhookEndpointWithSecret' });

export function endpointView(row: EndpointRow): z.infer<typeof endpointJson> {
  const overlap = row.previous_secret_expires_at && row.previous_secret_expires_at > new Date() ? row.previous_secret_expires_at.toISOString() : null;
  return {
    id: Number(row.id),
    url: row.url,
    description: row.description,
    event_types: row.event_types,
    enabled: row.enabled,
    disabled_reason: row.disabled_reason,
    disabled_at: row.disabled_at?.toISOString() ?? null,
    failing_since: row.failing_since?.toISOString() ?? null,
    previous_secret_expires_at: overlap,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export const deliveryJson = z
  .object({
    id: z.uuid(),
    event_id: z.string().describe('The `webhook-id` sent'),
    event_type: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    manual: z.boolean().describe('A redelivery or a test, asked for by a member'),
    attempts: z.number().int(),
    next_attempt_at: z.string().nullable(),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    created_at: z.string(),
    finished_at: z.string().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });

export function deliveryView(row: DeliveryView): z.infer<typeof deliveryJson> {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    manual: row.manual,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? (row.next_attempt_at?.toISOString() ?? null) : null,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    created_at: row.created_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}

export const attemptJson = z
  .object({
    number: z.number().int(),
    started_at: z.string(),
    duration_ms: z.number().int(),
    request: z.object({ headers: z.record(z.string(), z.string()), body: z.string().describe('The first 4 KiB') }),
    response: z.object({ status: z.number().int(), headers: z.record(z.string(), z.string()), body: z.string().describe('The first 4 KiB') }).nullable(),
    error: z.string().nullable().describe('Why no answer came: refused, timed out, an internal address...'),
  })
  .meta({ id: 'WebhookAttempt' });

export function attemptView(row: AttemptRow): z.infer<typeof attemptJson> {
  return {
    number: row.number,
    started_at: row.started_at.toISOString(),
    duration_ms: row.duration_ms,
    request: { headers: row.request_headers, body: row.request_body },
    response: row.response_status === null ? null : { status: row.response_status, headers: row.response_headers ?? {}, body: row.response_body ?? '' },
    error: row.error,
  };
}

export const deliveryDetailJson = deliveryJson.extend({ attempts_log: z.array(attemptJson) }).meta({ id: 'WebhookDeliveryDetail' });

export const deliveriesQuery = pageQuery.extend({
  status: z.enum(['pending', 'succeeded', 'failed']).optional(),
  event_type: plainText(100).optional(),
});

export const eventTypeJson = z.object({ type: z.string(), description: z.string() }).meta({ id: 'WebhookEventType' });
