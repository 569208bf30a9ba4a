import { contractOf } from './contract.ts';

/** One cookie as the server set it, with its attributes (lower-cased names). */
export type SetCookie = { name: string; value: string; attributes: Record<string, string | true> };

export type Reply = { status: number; body: any; headers: Headers; setCookies: SetCookie[]; /** The body's bytes as received. */ bytes: Buffer };

export type RequestOptions = {
  json?: unknown;
  /** A raw body (sent as is, with `contentType`). */
  raw?: string | Uint8Array;
  contentType?: string;
  headers?: Record<string, string>;
  /** Send X-CSRF-Token from the svc_csrf cookie (default true for unsafe methods). */
  csrf?: boolean;
  /** The Origin header; the panel's origin by default, `null` to send none. */
  origin?: string | null;
  /** Aborts the request (e.g. `AbortSignal.timeout(ms)`), so a hung answer fails the test by name. */
  signal?: AbortSignal;
};

/**
 * A browser-like HTTP client over real fetch: keeps the cookies the server sets (a jar per client)
 * and, like the panel's scripts, echoes svc_csrf in X-CSRF-Token and sends the panel's Origin.
 */
export class Client {
  readonly jar = new Map<string, string>();
  readonly baseUrl: string;
  readonly panelOrigin: string;
  /** Check every answer against the server's own /openapi.json (Berth's servers; not ad-hoc test apps). */
  readonly checksContract: boolean;
  /** Awaited before each request (a stack's: its API process has heard every change committed so far). */
  readonly beforeRequest: (() => Promise<void>) | undefined;

  constructor(baseUrl: string, panelOrigin: string, options: { contract?: boolean; beforeRequest?: () => Promise<void> } = {}) {
    this.baseUrl = baseUrl;
    this.panelOrigin = panelOrigin;
    this.checksContract = options.contract ?? false;
    this.beforeRequest = options.beforeRequest;
  }

  get(path: string, options: RequestOptions = {}): Promise<Reply> {
    return this.request('GET', path, options);
  }

  post(path: string, json?: unknown, options: RequestOptions = {}): Promise<Reply> {
    return this.request('POST', path, json === undefined ? options : { ...options, json });
  }

  patch(path: string, json: unknown, options: RequestOptions = {}): Promise<Reply> {
    return this.request('PATCH', path, { ...options, json });
  }

  put(path: string, json: unknown, options: RequestOptions = {}): Promise<Reply> {
    return this.request('PUT', path, { ...options, json });
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
    await this.beforeRequest?.();
    const headers: Record<string, string> = { ...options.headers };
    if (options.json !== undefined) headers['content-type'] = 'application/json';
    if (options.contentType) headers['content-type'] = options.contentType;
    if (this.jar.size > 0 && !('cookie' in headers)) {
      headers.cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(method);
    if (unsafe && options.csrf !== false && this.jar.has('svc_csrf') && !('x-csrf-token' in headers)) {
      headers['x-csrf-token'] = this.jar.get('svc_csrf')!;
    }
    const origin = options.origin === undefined ? this.panelOrigin : options.origin;
    if (unsafe && origin !== null && !('origin' in headers)) headers.origin = origin;

    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: (options.raw ?? (options.json === undefined ? undefined : JSON.stringify(options.json))) as RequestInit['body'],
      redirect: 'manual',
      signal: options.signal,
    });
    // an event stream may never end: its answer here is the status and headers (test/helpers/event-stream.ts reads streams)
    const endless = response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
    if (endless) await response.body?.cancel();
    const bytes = endless ? Buffer.alloc(0) : Buffer.from(await response.arrayBuffer());
    const text = bytes.toString('utf8');
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    if (this.checksContract) {
      (await contractOf(this.baseUrl)).check(method, path, response.status, response.headers.get('content-type'), text, body);
    }
    const setCookies = response.headers.getSetCookie().map(parseSetCookie);
    for (const cookie of setCookies) {
      const expired =
        cookie.attributes['max-age'] === '0' || (typeof cookie.attributes.expires === 'string' && Date.parse(cookie.attributes.expires) <= Date.now());
      if (expired || cookie.value === '') this.jar.delete(cookie.name);
      else this.jar.set(cookie.name, cookie.value);
    }
    return { status: response.status, body, headers: response.headers, setCookies, bytes };
  }
}

/** Request options sending `token` as a bearer token (with any other headers). */
export function bearer(token: string, headers: Record<string, string> = {}) {
  return { headers: { authorization: `Bearer ${token}`, ...headers } };
}

/** Request options that say the request comes from `ip` (to a server that trusts the loopback proxy); none without one. */
export function forwardedFor(ip: string | undefined): { headers: Record<string, string> } {
  return { headers: ip ? { 'x-forwarded-for': ip } : {} };
}

export function parseSetCookie(header: string): SetCookie {
  const [pair = '', ...attributeParts] = header.split(';');
  const separator = pair.indexOf('=');
  const attributes: Record<string, string | true> = {};
  for (const part of attributeParts) {
    const [key = '', ...rest] = part.trim().split('=');
    attributes[key.toLowerCase()] = rest.length > 0 ? rest.join('=') : true;
  }
  return { name: pair.slice(0, separator).trim(), value: pair.slice(separator + 1).trim(), attributes };
}
