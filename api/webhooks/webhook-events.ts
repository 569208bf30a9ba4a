import { z } from 'zod';
import { EVENT_TYPE_NAMES, EVENT_TYPES } from '../../shared/domains/webhooks/event-catalogue.ts';

const signatureHeaders = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: "The event's id (`msg_…`), the same on every retry and redelivery: deduplicate on it",
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'When this attempt was signed, Unix seconds: refuse ones far from now (replays)',
    schema: { type: 'string' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Space-separated `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` under the base64-decoded secret after `whsec_`; one per live secret (two after a rotation, until the old one expires)',
    schema: { type: 'string' },
  },
];

/** The OpenAPI 3.1 `webhooks` section: one entry per event type, its body's schema from the catalogue. */
export function webhookEventDocs(schemaOf: (schema: z.ZodType) => Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    EVENT_TYPE_NAMES.map((type) => {
      const event = EVENT_TYPES[type]!;
      const body = z.object({ type: z.literal(type), timestamp: z.string().describe('When it happened, ISO 8601 UTC'), data: event.data });
      const schema = schemaOf(body);
      return [
        type,
        {
          post: {
            operationId: `webhook${type.replace(/[^a-zA-Z0-9]+(.)?/g, (_match, next: string | undefined) => (next ?? '').toUpperCase()).replace(/^./, (first) => first.toUpperCase())}`,
            summary: type,
            description: event.description,
            tags: ['webhooks'],
            // Berth calls the endpoint: no Berth credential, the signature headers prove the sender
            security: [],
            parameters: signatureHeaders,
            requestBody: { required: true, content: { 'application/json': { schema } } },
            responses: {
              '2XX': { description: 'Received: the delivery succeeded (any other answer is retried)' },
              '410': { description: 'Gone: the endpoint is disabled, and no more is sent to it' },
            },
          },
        },
      ];
    }),
  );
}
