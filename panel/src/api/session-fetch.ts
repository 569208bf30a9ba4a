/**
 * The fetch the panel's SDK client uses: the browser sends the session cookies (same origin), this
 * adds the double-submit CSRF header to unsafe requests, and an expired access cookie is renewed
 * once through POST /api/v1/auth/refresh (which rotates the refresh cookie) before the request is
 * repeated. A refresh that fails means the session is over: `onSignedOut` is told.
 */
const CSRF_COOKIE = 'svc_csrf';
const REFRESH_PATH = '/api/v1/auth/refresh';
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

export function csrfToken(): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === CSRF_COOKIE) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

function withCsrf(init: RequestInit | undefined): RequestInit {
  const headers = new Headers(init?.headers);
  // browsers refuse to let a page set User-Agent; the SDK's own value would only be dropped
  headers.delete('user-agent');
  const method = (init?.method ?? 'GET').toUpperCase();
  const token = csrfToken();
  if (!safeMethods.has(method) && token) headers.set('x-csrf-token', token);
  return { ...init, headers, credentials: 'same-origin' };
}

let refreshing: Promise<boolean> | null = null;

/** One refresh at a time: parallel requests that all met a 401 wait for the same rotation. */
function refreshSession(): Promise<boolean> {
  refreshing ??= fetch(REFRESH_PATH, withCsrf({ method: 'POST' }))
    .then((response) => response.ok)
    .catch(() => false)
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

export function sessionFetch(onSignedOut: () => void): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, withCsrf(init));
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    // a 401 from a sign-in step is its answer, not an expired session
    if (response.status !== 401 || url.includes('/api/v1/auth/')) return response;
    if (!(await refreshSession())) {
      onSignedOut();
      return response;
    }
    // a streamed body cannot be sent twice; the SDK only streams uploads, which then fail with the 401
    if (init?.body instanceof ReadableStream) return response;
    return fetch(input, withCsrf(init));
  };
}
