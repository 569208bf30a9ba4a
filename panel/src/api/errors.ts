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
  const fields = error instanceof BerthError ? (error.details.fields ?? []) : [];
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
