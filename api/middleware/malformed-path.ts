/**
 * Express's router decodes each path parameter with decodeURIComponent before any route runs; a
 * broken percent-encoding (`/v1/sites/%ZZ`, `%E0%A4` cut short) makes it throw a URIError it marks
 * 400. Each surface's error handler answers it as the client's mistake it is, in its own shape, and
 * does not log it as a server error (anyone could otherwise fill the error log without credentials).
 */
export function isMalformedPath(error: unknown): boolean {
  return error instanceof URIError && (error as { status?: unknown }).status === 400;
}

export const MALFORMED_PATH_MESSAGE = 'The path is not valid: a percent sign must be followed by two hexadecimal digits that decode to UTF-8';

/** What the OpenAPI document says of that answer, on every operation with a path parameter. */
export const MALFORMED_PATH_DOC = 'a path parameter holds a broken percent-encoding (e.g. `%ZZ`), answered before the route runs';

export function hasPathParameters(doc: { path: string }): boolean {
  return /:\w/.test(doc.path);
}
