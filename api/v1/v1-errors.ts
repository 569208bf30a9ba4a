import type { NextFunction, Request, Response } from 'express';
import {
  Conflict,
  ConcurrentLoginDenied,
  ConcurrentLoginPending,
  CsrfMismatch,
  DeviceApprovalRequired,
  EmailNotVerified,
  NotAuthenticated,
  NotFound,
  PayloadTooLarge,
  PaymentRequired,
  PermissionDenied,
  RateLimited,
  TotpRequired,
  UploadQuotaExceeded,
  UpstreamFailed,
  ValidationFailed,
  WebhookSignatureInvalid,
} from '../../shared/errors.ts';
import { lingerAfterEarlyAnswer } from '../middleware/early-answer.ts';
import { isMalformedPath, MALFORMED_PATH_MESSAGE } from '../middleware/malformed-path.ts';
import { metaOf } from './envelope.ts';

type V1Error = { status: number; code: string; message: string; details: Record<string, unknown> };

/**
 * The one error handler of /v1: `{error: {code, message, details}, meta}` with the codes of spec
 * part 7.2. `details.reason` tells apart the causes that share a code (a second factor is missing, a
 * device must be approved, ...); `details.fields` names what failed validation.
 */
export function v1ErrorHandler(error: unknown, req: Request, res: Response, _next: NextFunction): void {
  const mapped = toV1Error(error);
  if (mapped.status >= 500) req.log.error({ err: error }, 'request failed');
  if (error instanceof RateLimited || error instanceof UploadQuotaExceeded) res.setHeader('Retry-After', String(error.retryAfterSeconds));
  // Answered before the body was read (a 401/403, a limit crossed by an upload): the rest is discarded, briefly.
  lingerAfterEarlyAnswer(req, res);
  res.status(mapped.status).json({ error: { code: mapped.code, message: mapped.message, details: mapped.details }, meta: metaOf(req) });
}

export function toV1Error(error: unknown): V1Error {
  const of = (status: number, code: string, message: string, details: Record<string, unknown> = {}): V1Error => ({ status, code, message, details });
  if (isMalformedPath(error)) return of(400, 'VALIDATION_ERROR', MALFORMED_PATH_MESSAGE, { reason: 'malformed_path' });
  if (error instanceof ValidationFailed) return of(422, 'VALIDATION_ERROR', 'The request is not valid', { fields: error.problems });
  if (error instanceof TotpRequired) return of(401, 'AUTHENTICATION_ERROR', error.message, { reason: 'totp_required' });
  if (error instanceof NotAuthenticated) return of(401, 'AUTHENTICATION_ERROR', error.message);
  if (error instanceof EmailNotVerified) return of(403, 'AUTHORIZATION_ERROR', error.message, { reason: 'email_not_verified', email: error.email });
  if (error instanceof DeviceApprovalRequired) return of(403, 'AUTHORIZATION_ERROR', error.message, { reason: 'device_approval_required' });
  if (error instanceof CsrfMismatch) return of(403, 'AUTHORIZATION_ERROR', error.message, { reason: 'csrf_mismatch' });
  if (error instanceof PermissionDenied) {
    return of(403, 'AUTHORIZATION_ERROR', error.message, { reason: 'missing_permission', ...(error.permission ? { permission: error.permission } : {}) });
  }
  if (error instanceof ConcurrentLoginPending) return of(403, 'AUTHORIZATION_ERROR', error.message, { reason: 'concurrent_login_pending', token: error.token });
  if (error instanceof ConcurrentLoginDenied) return of(403, 'AUTHORIZATION_ERROR', error.message, { reason: 'concurrent_login_denied' });
  if (error instanceof WebhookSignatureInvalid) return of(400, 'INVALID_SIGNATURE', error.message, { reason: error.reason });
  if (error instanceof NotFound) return of(404, 'NOT_FOUND', error.message || 'Not found');
  // A conflict may name its cause (`reason`, e.g. billing's `subscription_exists`).
  if (error instanceof Conflict)
    return of(409, 'CONFLICT', error.message, 'reason' in error && typeof error.reason === 'string' ? { reason: error.reason } : {});
  if (error instanceof PaymentRequired) return of(402, 'PAYMENT_REQUIRED', error.message, { limit: error.limit });
  if (error instanceof RateLimited) return of(429, 'RATE_LIMIT_EXCEEDED', error.message, { retry_after_seconds: error.retryAfterSeconds });
  if (error instanceof UploadQuotaExceeded) {
    const { bytes, count, quotaBytes, quotaCount } = error.usage;
    return of(429, 'RATE_LIMIT_EXCEEDED', error.message, {
      reason: 'upload_quota',
      used_bytes: bytes,
      used_count: count,
      quota_bytes: quotaBytes,
      quota_count: quotaCount,
      retry_after_seconds: error.retryAfterSeconds,
    });
  }
  if (error instanceof PayloadTooLarge) return of(413, 'PAYLOAD_TOO_LARGE', error.message);
  if (error instanceof UpstreamFailed) return of(502, 'UPSTREAM_ERROR', error.message, { service: error.service });
  const bodyParserError = error as { type?: string; status?: number };
  if (bodyParserError.type === 'entity.too.large') return of(413, 'PAYLOAD_TOO_LARGE', 'Request body is too large');
  if (bodyParserError.type === 'entity.parse.failed') return of(422, 'VALIDATION_ERROR', 'Request body is not valid JSON', { fields: [] });
  if (typeof bodyParserError.type === 'string' && bodyParserError.status && bodyParserError.status < 500) {
    return of(bodyParserError.status, 'VALIDATION_ERROR', 'Request body cannot be read', { fields: [] });
  }
  return of(500, 'INTERNAL_ERROR', 'Internal server error');
}
