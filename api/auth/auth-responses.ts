import type { ResponseDoc } from '../openapi/documented-router.ts';
import { errorReply } from './auth.schemas.ts';

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
