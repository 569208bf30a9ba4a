import {
  AuthenticationError,
  BerthError,
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ValidationError,
  type BerthErrorInit,
  type ErrorDetails,
} from './errors.ts';
import { retryAfterSeconds } from './retry-policy.ts';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The code, message, details and request id of either error shape, or of an answer that is neither. */
function readErrorBody(status: number, text: string, headerRequestId: string | null): BerthErrorInit {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (isObject(body) && isObject(body.error)) {
    const { code, message, details } = body.error;
    const meta = isObject(body.meta) ? body.meta : {};
    return {
      status,
      code: String(code ?? `HTTP_${status}`),
      message: String(message ?? `HTTP ${status}`),
      details: isObject(details) ? (details as ErrorDetails) : {},
      requestId: typeof meta.request_id === 'string' ? meta.request_id : headerRequestId,
    };
  }
  if (isObject(body) && (typeof body.detail === 'string' || isObject(body.detail))) {
    // the cookie surface's special shapes keep their fields as details: 422 `{detail, email}` and
    // 423 `{detail: {status, token}}` (a concurrent login waiting for its decision)
    const { detail, code, ...rest } = body;
    const details: ErrorDetails = isObject(detail) ? { ...rest, ...detail } : rest;
    const message = typeof detail === 'string' ? detail : `${String(code ?? `HTTP ${status}`)}: ${String(detail.status ?? '')}`.trim();
    return { status, code: String(code ?? `HTTP_${status}`), message, details, requestId: headerRequestId };
  }
  return { status, code: `HTTP_${status}`, message: text.slice(0, 500) || `HTTP ${status}`, details: {}, requestId: headerRequestId };
}

/** The BerthError (or its subclass by status) that a non-2xx answer stands for. Reads the body. */
export async function errorFromResponse(response: Response): Promise<BerthError> {
  const init = readErrorBody(response.status, await response.text(), response.headers.get('x-request-id'));
  switch (response.status) {
    case 401:
      return new AuthenticationError(init);
    case 403:
      return new PermissionDeniedError(init);
    case 404:
      return new NotFoundError(init);
    case 409:
      return new ConflictError(init);
    case 422:
      return new ValidationError(init);
    case 429:
      return new RateLimitError(
        init,
        retryAfterSeconds(response.headers.get('retry-after')) ?? (init.details.retry_after_seconds as number | undefined) ?? null,
      );
    case 400:
      return init.code.toLowerCase() === 'validation_error' ? new ValidationError(init) : new BerthError(init);
    default:
      return new BerthError(init);
  }
}
