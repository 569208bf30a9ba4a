/**
 * Errors that describe the domain, not the transport. Each API surface maps them to its own body in
 * one error handler (api/middleware/auth-errors.ts, later the /v1 one).
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
  constructor(message = 'Missing permission') {
    super(message);
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

export class Conflict extends DomainError {}

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
