/**
 * Errors that describe the domain, not the transport. Each API surface maps them to its own body in
 * one error handler (api/auth/auth-errors.ts and api/v1/v1-errors.ts).
 */
export class DomainError extends Error {
  override name = this.constructor.name;
}

/** Missing, invalid, expired or revoked credentials. */
export class NotAuthenticated extends DomainError {
  constructor(message = 'Not authenticated') {
    super(message);
  }
}

export class PermissionDenied extends DomainError {
  /** The permission that was needed, when one was. */
  readonly permission: string | undefined;
  constructor(message = 'Missing permission', permission?: string) {
    super(message);
    this.permission = permission;
  }

  static missing(permission: string): PermissionDenied {
    return new PermissionDenied(`Missing permission: ${permission}`, permission);
  }
}

export class CsrfMismatch extends DomainError {
  constructor(message = 'CSRF validation failed') {
    super(message);
  }
}

export type FieldProblem = { field: string; message: string };

export class ValidationFailed extends DomainError {
  readonly problems: FieldProblem[];
  constructor(problems: FieldProblem[]) {
    super(problems.map((problem) => (problem.field ? `${problem.field}: ${problem.message}` : problem.message)).join('; '));
    this.problems = problems;
  }
  static field(field: string, message: string): ValidationFailed {
    return new ValidationFailed([{ field, message }]);
  }
}

/** Correct credentials, but the e-mail address has not been verified yet. */
export class EmailNotVerified extends DomainError {
  readonly email: string;
  constructor(email: string) {
    super('E-mail verification is required before signing in');
    this.email = email;
  }
}

export class NotFound extends DomainError {}

/** A provider's webhook whose signature is missing, wrong or too old: 400 INVALID_SIGNATURE on /v1, nothing done. */
export class WebhookSignatureInvalid extends DomainError {
  readonly reason: 'signature_missing' | 'signature_mismatch' | 'timestamp_outside_tolerance';
  constructor(reason: WebhookSignatureInvalid['reason'], message: string) {
    super(message);
    this.reason = reason;
  }
}

export class Conflict extends DomainError {}

/** A service Berth relies on (a DNS server's API...) refused or did not answer: 502 UPSTREAM_ERROR on /v1, naming it. */
export class UpstreamFailed extends DomainError {
  readonly service: string;
  constructor(service: string, message: string) {
    super(message);
    this.service = service;
  }
}

/** The team's plan does not allow it (no plan, or a limit reached): 402 PAYMENT_REQUIRED on /v1. */
export class PaymentRequired extends DomainError {
  readonly limit: string;
  constructor(message: string, limit: string) {
    super(message);
    this.limit = limit;
  }
}

export class RateLimited extends DomainError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super('Too many attempts, try again later');
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export class PayloadTooLarge extends DomainError {
  constructor() {
    super('Request body is too large');
  }
}

/**
 * The team's live uploads would pass its quota (UPLOAD_QUOTA_BYTES or UPLOAD_QUOTA_COUNT): the
 * upload is refused whole. Room comes back as uploads expire; `retryAfterSeconds` is the next expiry.
 */
export class UploadQuotaExceeded extends DomainError {
  readonly usage: { bytes: number; count: number; quotaBytes: number; quotaCount: number };
  readonly retryAfterSeconds: number;
  constructor(usage: { bytes: number; count: number; quotaBytes: number; quotaCount: number }, retryAfterSeconds: number) {
    super(
      usage.count >= usage.quotaCount
        ? `The team already holds ${usage.count} live uploads, its quota (${usage.quotaCount}); they expire 24 hours after upload`
        : `This upload would take the team past its quota of ${usage.quotaBytes} bytes of live uploads (${usage.bytes} in use); they expire 24 hours after upload`,
    );
    this.usage = usage;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The session exists but waits for its second factor (TOTP or a backup code). */
export class TotpRequired extends DomainError {
  constructor(message = 'Two-factor authentication required: verify a TOTP or backup code') {
    super(message);
  }
}

/** The device is not trusted yet: a code must be requested and approved first. */
export class DeviceApprovalRequired extends DomainError {
  constructor(message = 'New device: request a code with /device/challenge and approve it with /device/approve') {
    super(message);
  }
}

/** Another session of the user is live; this login waits for its approval. */
export class ConcurrentLoginPending extends DomainError {
  readonly token: string;
  constructor(token: string) {
    super('Another session is active; approval of this login is pending');
    this.token = token;
  }
}

export class ConcurrentLoginDenied extends DomainError {
  constructor(message = 'This login was denied from the active session') {
    super(message);
  }
}
