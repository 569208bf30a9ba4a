import { PermissionDenied } from '../../errors.ts';

/**
 * Answers the first grant of `grants` the caller does not hold, or undefined when they hold them all.
 * The API builds it from its caller (role and, for an API token, the token's grants), so the domain
 * enforces "nobody grants what they do not hold" without knowing how the caller signed in.
 */
export type NotHeld = (grants: readonly string[]) => string | undefined;

/** 403 naming the first grant the caller lacks: `what` says what they tried ("assign the role admin"). */
export function refuseUnheld(notHeld: NotHeld, grants: readonly string[], what: string): void {
  const missing = notHeld(grants);
  if (missing !== undefined) throw new PermissionDenied(`Cannot ${what}: it grants ${missing}, which you do not hold`, missing);
}
