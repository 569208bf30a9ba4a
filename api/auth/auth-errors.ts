import type { NextFunction, Request, Response } from 'express';
import {
  ConcurrentLoginDenied,
  ConcurrentLoginPending,
  CsrfMismatch,
  DeviceApprovalRequired,
  EmailNotVerified,
  NotAuthenticated,
  NotFound,
  PayloadTooLarge,
  PermissionDenied,
  RateLimited,
  TotpRequired,
  ValidationFailed,
} from '../../shared/errors.ts';
import { isMalformedPath, MALFORMED_PATH_MESSAGE } from '../middleware/malformed-path.ts';

type AuthErrorBody = { detail: unknown; code: string } & Record<string, unknown>;

/**
 * The one error handler of /api/v1/auth: `{detail, code}` with the codes of spec part 7.1. The two
 * special shapes keep their fields: 422 `{detail, email}` (unverified e-mail at login) and 423
 * `{detail: {status, token}}` (concurrent login).
 */
export function authErrorHandler(error: unknown, req: Request, res: Response, _next: NextFunction): void {
  const [status, body] = toAuthError(error);
  if (error instanceof RateLimited) res.setHeader('Retry-After', String(error.retryAfterSeconds));
  if (status >= 500) req.log.error({ err: error }, 'request failed');
  res.status(status).json(body);
}

export function toAuthError(error: unknown): [number, AuthErrorBody] {
  if (isMalformedPath(error)) return [400, { detail: MALFORMED_PATH_MESSAGE, code: 'validation_error' }];
  if (error instanceof EmailNotVerified) return [422, { detail: error.message, email: error.email, code: 'validation_error' }];
  if (error instanceof ValidationFailed) return [422, { detail: error.message, code: 'validation_error' }];
  if (error instanceof ConcurrentLoginPending) return [423, { detail: { status: 'pending', token: error.token }, code: 'concurrent_login_pending' }];
  if (error instanceof ConcurrentLoginDenied) return [423, { detail: error.message, code: 'concurrent_login_denied' }];
  if (error instanceof TotpRequired) return [401, { detail: error.message, code: 'totp_required' }];
  if (error instanceof DeviceApprovalRequired) return [403, { detail: error.message, code: 'device_approval_required' }];
  if (error instanceof NotAuthenticated) return [401, { detail: error.message, code: 'not_authenticated' }];
  if (error instanceof PermissionDenied) return [403, { detail: error.message, code: 'missing_permission' }];
  if (error instanceof CsrfMismatch) return [403, { detail: error.message, code: 'csrf_mismatch' }];
  if (error instanceof RateLimited) return [429, { detail: error.message, code: 'rate_limit_exceeded' }];
  if (error instanceof PayloadTooLarge) return [413, { detail: error.message, code: 'payload_too_large' }];
  if (error instanceof NotFound) return [404, { detail: error.message, code: 'not_found' }];
  const bodyParserError = error as { type?: string; status?: number };
  if (bodyParserError.type === 'entity.too.large') return [413, { detail: 'Request body is too large', code: 'payload_too_large' }];
  if (bodyParserError.type === 'entity.parse.failed') return [422, { detail: 'Request body is not valid JSON', code: 'validation_error' }];
  if (typeof bodyParserError.type === 'string' && bodyParserError.status && bodyParserError.status < 500) {
    return [bodyParserError.status, { detail: 'Request body cannot be read', code: 'validation_error' }];
  }
  return [500, { detail: 'Internal server error', code: 'internal_error' }];
}
