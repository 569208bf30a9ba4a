import type { OperationSpec } from './operation-spec.ts';
import type { BinaryBody, RequestOptions } from './request-options.ts';

export type PreparedRequest = { method: string; url: string; headers: Record<string, string>; body: string | BinaryBody | undefined };

type Params = Record<string, unknown> & { body?: unknown };

function queryValue(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value);
}

/** The URL of an operation: path parameters substituted (each one segment, escaped), query parameters appended. */
export function operationUrl(baseUrl: string, spec: OperationSpec, params: Params): string {
  const path = spec.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined || value === null || value === '') throw new TypeError(`missing path parameter "${name}" for ${spec.method} ${spec.path}`);
    return encodeURIComponent(String(value));
  });
  const url = new URL(baseUrl.replace(/\/+$/, '') + path);
  for (const name of spec.queryParams) {
    const value = params[name];
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, queryValue(item));
  }
  return url.toString();
}

/**
 * Everything but the retries: URL, headers (credentials, JSON or the documented media type,
 * Idempotency-Key) and body. `idempotencyKey` is the one key of this logical call, reused by its retries.
 */
export function buildRequest(
  baseUrl: string,
  spec: OperationSpec,
  params: Params,
  context: { token: string | undefined; userAgent: string; idempotencyKey: string | undefined; options: RequestOptions },
): PreparedRequest {
  // a download is whatever its documented media type is (application/zstd, application/pdf, ...)
  const accept = spec.answer === 'binary' ? '*/*' : 'application/json';
  const headers: Record<string, string> = { accept, 'user-agent': context.userAgent };
  if (context.token) headers.authorization = `Bearer ${context.token}`;
  if (context.idempotencyKey) headers['idempotency-key'] = context.idempotencyKey;
  let body: PreparedRequest['body'];
  if (spec.bodyMediaType && params.body !== undefined) {
    headers['content-type'] = spec.bodyMediaType;
    const json = spec.bodyMediaType === 'application/json' || spec.bodyMediaType.endsWith('+json');
    body = json ? JSON.stringify(params.body) : (params.body as BinaryBody);
  }
  // the caller's headers win: a Cookie, an X-CSRF-Token, another documented Content-Type
  for (const [name, value] of Object.entries(context.options.headers ?? {})) headers[name.toLowerCase()] = value;
  return { method: spec.method, url: operationUrl(baseUrl, spec, params), headers, body };
}
