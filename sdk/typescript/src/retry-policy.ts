/**
 * When a failed attempt is tried again and after how long. Retried: network errors, 429, 502, 503 and
 * 504, for GET/HEAD/PUT/DELETE always and for POST/PATCH only with an Idempotency-Key (the server then
 * answers a repeat with the first answer instead of doing the work twice).
 */
export const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);
const ALWAYS_SAFE_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
/** The longest Retry-After waited between two attempts: a longer one is cut to this. */
export const MAX_RETRY_AFTER_SECONDS = 60;
const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;

export function mayRetry(method: string, hasIdempotencyKey: boolean): boolean {
  return ALWAYS_SAFE_METHODS.has(method) || hasIdempotencyKey;
}

/** Retry-After as seconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterSeconds(header: string | null): number | null {
  if (header === null || header.trim() === '') return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, (date - Date.now()) / 1000);
}

/** The wait before retry number `retry` (0 first): the server's Retry-After when given, else 0.5 s doubling, with jitter. */
export function retryDelayMs(retry: number, retryAfter: number | null): number {
  if (retryAfter !== null) return Math.min(retryAfter, MAX_RETRY_AFTER_SECONDS) * 1000;
  const base = Math.min(FIRST_BACKOFF_MS * 2 ** retry, MAX_BACKOFF_MS);
  // +-25 %: clients that failed together do not come back together
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
