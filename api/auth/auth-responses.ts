import type { ResponseDoc } from '../openapi/documented-router.ts';
import { errorReply } from './auth.schemas.ts';
import { UNREADABLE_BODY_DOC, type SurfaceConventions } from '../openapi/openapi.ts';

/** The error answers the auth surface shares, for the route declarations. */
export const authErrors = {
  unauthenticated: { 401: { description: '`not_authenticated`: missing, invalid, expired or revoked credentials', schema: errorReply } },
  forbidden: { 403: { description: '`missing_permission` or `csrf_mismatch`', schema: errorReply } },
  invalid: {
    413: { description: '`payload_too_large`: body over 16 kB', schema: errorReply },
    422: { description: '`validation_error`: the body does not match; `detail` names the fields', schema: errorReply },
  },
  limited: { 429: { description: '`rate_limit_exceeded`', schema: errorReply } },
} satisfies Record<string, Record<number, ResponseDoc>>;

/**
 * What every route of the auth surface shares in the document: a body sent with an unsafe method is
 * read before the route (whether the route declares one or not), so it may be refused as too large
 * (413), unreadable (415) or not JSON (422).
 */
export const authConventions: SurfaceConventions = {
  responses: (doc): Record<number, ResponseDoc> =>
    doc.method === 'get' ? {} : { ...authErrors.invalid, 415: { description: `\`validation_error\`: ${UNREADABLE_BODY_DOC}`, schema: errorReply } },
};
