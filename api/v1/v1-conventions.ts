import type { ResponseDoc, RouteDoc } from '../openapi/documented-router.ts';
import { rateLimitHeaders, type SurfaceConventions } from '../openapi/openapi.ts';
import { errorEnvelope } from './envelope.ts';
import { hasPathParameters, MALFORMED_PATH_DOC, MALFORMED_PATH_MESSAGE } from '../middleware/malformed-path.ts';
import { UNREADABLE_BODY_DOC } from '../openapi/openapi.ts';

const unsafeMethods = new Set(['post', 'put', 'patch', 'delete']);

const exampleMeta = { timestamp: '2026-11-22T10:00:00.000Z', request_id: '5f0c6a1e-8d5b-4a43-9b59-2f1c1d0e7a11' };
const errorExample = (code: string, message: string, details: Record<string, unknown> = {}) => ({ error: { code, message, details }, meta: exampleMeta });

/**
 * What every /v1 operation shares (spec parts 2.8 and 7.2), written once so the document states it
 * for each operation: X-Request-Id and the rate-limit headers on every answer, Idempotency-Key on
 * unsafe methods, and the errors the conventions themselves produce (400 for a path parameter with a
 * broken percent-encoding, 401 for routes that need a caller, 409 for a reused Idempotency-Key, 413/415/422 for bodies and query strings, 429, 500).
 */
export const v1Conventions: SurfaceConventions = {
  responseHeaders: (doc, status) => ({
    'X-Request-Id': { description: 'The id of this request; also `meta.request_id` and in every log line of the request', schema: { type: 'string' } },
    ...rateLimitHeaders,
    ...(status === 429 ? { 'Retry-After': { description: 'Seconds until a request can succeed', schema: { type: 'integer' } } } : {}),
    ...(unsafeMethods.has(doc.method) && status < 300
      ? {
          'Idempotent-Replayed': {
            description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key',
            schema: { type: 'string', enum: ['true'] },
          },
        }
      : {}),
  }),
  parameters: (doc) =>
    unsafeMethods.has(doc.method)
      ? [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description:
              '1 to 255 visible ASCII characters (a UUID). A repeat with the same key and body within 24 h gets the first answer ' +
              '(`Idempotent-Replayed: true`); with a different body, or while the first is still running, 409 CONFLICT. Scoped to the caller.',
            schema: { type: 'string', minLength: 1, maxLength: 255 },
          },
        ]
      : [],
  responses: (doc: RouteDoc) => {
    const answers: Record<number, ResponseDoc & { example?: unknown }> = {};
    if (hasPathParameters(doc)) {
      answers[400] = {
        description: `VALIDATION_ERROR with \`details.reason: malformed_path\`: ${MALFORMED_PATH_DOC}`,
        schema: errorEnvelope,
        example: errorExample('VALIDATION_ERROR', MALFORMED_PATH_MESSAGE, { reason: 'malformed_path' }),
      };
    }
    if (doc.security?.length) {
      answers[401] = {
        description: 'AUTHENTICATION_ERROR: no valid credentials (`details.reason: totp_required` when the session still needs its second factor)',
        schema: errorEnvelope,
        example: errorExample('AUTHENTICATION_ERROR', 'Authentication required: send Authorization: Bearer <token>'),
      };
    }
    if (unsafeMethods.has(doc.method)) {
      answers[409] = {
        description:
          'CONFLICT, including an Idempotency-Key reused with another body (`details.reason: fingerprint_mismatch`) or still in flight (`in_progress`)',
        schema: errorEnvelope,
        example: errorExample('CONFLICT', 'This Idempotency-Key was used with a different request body', { reason: 'fingerprint_mismatch' }),
      };
    }
    // Any body sent with an unsafe method is read (and refused) before the route, declared or not.
    if (unsafeMethods.has(doc.method)) {
      answers[413] = {
        description: 'PAYLOAD_TOO_LARGE: body over 16 kB',
        schema: errorEnvelope,
        example: errorExample('PAYLOAD_TOO_LARGE', 'Request body is too large'),
      };
      answers[415] = {
        description: `VALIDATION_ERROR: ${UNREADABLE_BODY_DOC}`,
        schema: errorEnvelope,
        example: errorExample('VALIDATION_ERROR', 'Request body cannot be read', { fields: [] }),
      };
    }
    answers[422] = {
      description: 'VALIDATION_ERROR: `details.fields` lists each failing field and why',
      schema: errorEnvelope,
      example: errorExample('VALIDATION_ERROR', 'The request is not valid', {
        fields: [{ field: 'page_size', message: 'Too big: expected number to be <=100' }],
      }),
    };
    answers[429] = {
      description: 'RATE_LIMIT_EXCEEDED: see `Retry-After`',
      schema: errorEnvelope,
      example: errorExample('RATE_LIMIT_EXCEEDED', 'Too many requests', { retry_after_seconds: 12 }),
    };
    answers[500] = {
      description: 'INTERNAL_ERROR: nothing about the cause; quote `meta.request_id` to support',
      schema: errorEnvelope,
      example: errorExample('INTERNAL_ERROR', 'Internal server error'),
    };
    return answers;
  },
};
