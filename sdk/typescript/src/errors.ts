/**
 * One error type for every failed answer, whichever surface sent it: /v1 answers
 * `{error: {code, message, details}, meta: {request_id}}`, the panel's cookie surface /api/v1/auth/*
 * answers `{detail, code}` (its request id is in the X-Request-Id header). Programs branch on `code`
 * and `details.reason`; `message` is for people.
 */
export type ErrorDetails = {
  reason?: string;
  fields?: { field: string; message: string }[];
  [key: string]: unknown;
};

export type BerthErrorInit = { status: number; code: string; message: string; requestId: string | null; details: ErrorDetails };

export class BerthError extends Error {
  readonly status: number;
  readonly code: string;
  readonly requestId: string | null;
  readonly details: ErrorDetails;

  constructor(init: BerthErrorInit) {
    super(init.message);
    this.name = new.target.name;
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details;
  }
}

/** 401: no, a wrong or an expired credential (also `details.reason: totp_required`). */
export class AuthenticationError extends BerthError {}
/** 403: signed in but not allowed (`missing_permission`, `device_approval_required`, ...). */
export class PermissionDeniedError extends BerthError {}
export class NotFoundError extends BerthError {}
/** 409: the state does not allow it, or an Idempotency-Key is reused with another body or still running. */
export class ConflictError extends BerthError {}

/** 422 (and 400 with `validation_error`): `fields` names each field that failed and why. */
export class ValidationError extends BerthError {
  get fields(): { field: string; message: string }[] {
    return this.details.fields ?? [];
  }
}

/** 429, once the retries are spent: `retryAfter` is the wait the server asked for, in seconds. */
export class RateLimitError extends BerthError {
  readonly retryAfter: number | null;

  constructor(init: BerthErrorInit, retryAfter: number | null) {
    super(init);
    this.retryAfter = retryAfter;
  }
}

/** The request never got an answer: refused connection, reset, DNS, TLS. `cause` is the fetch error. */
export class BerthConnectionError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'BerthConnectionError';
  }
}
