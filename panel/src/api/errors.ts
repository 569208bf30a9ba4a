import { BerthConnectionError, BerthError } from '@berth/sdk';

/** The message to show for a failed call: the API's own words, with the request id to quote to support. */
export function errorMessage(error: unknown): string {
  if (error instanceof BerthError) return error.message;
  if (error instanceof BerthConnectionError) return 'Berth cannot be reached. Check your connection and try again.';
  if (error instanceof Error) return error.message;
  return String(error);
}

export function requestIdOf(error: unknown): string | null {
  return error instanceof BerthError ? error.requestId : null;
}

/** `details.fields` of a 422 by field name (the body's own names, e.g. `name` or `domain.name`). */
export function fieldErrors(error: unknown): Record<string, string> {
  const fields = error instanceof BerthError ? (error.details.fields ?? authSurfaceFields(error)) : [];
  const byName: Record<string, string> = {};
  for (const { field, message } of fields) byName[field] ??= message;
  return byName;
}

export function reasonOf(error: unknown): string | undefined {
  return error instanceof BerthError ? error.details.reason : undefined;
}

export function isNotFound(error: unknown): boolean {
  return error instanceof BerthError && error.status === 404;
}

export function isUnauthenticated(error: unknown): boolean {
  return error instanceof BerthError && error.status === 401;
}

/**
 * The cookie surface (/api/v1/auth) keeps the specification's `{detail, code}` shape, so its 422
 * names the fields in the message instead: `password: too short; email: not an address`.
 */
function authSurfaceFields(error: BerthError): { field: string; message: string }[] {
  if (error.code !== 'validation_error') return [];
  return error.message.split('; ').flatMap((part) => {
    const match = /^([A-Za-z_][\w.]*): (.+)$/.exec(part);
    return match ? [{ field: match[1]!, message: match[2]! }] : [];
  });
}
