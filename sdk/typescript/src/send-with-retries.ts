import type { PreparedRequest } from './build-request.ts';
import { errorFromResponse } from './error-from-response.ts';
import { BerthConnectionError } from './errors.ts';
import { RETRYABLE_STATUSES, retryAfterSeconds, retryDelayMs, sleep } from './retry-policy.ts';

export type SendPolicy = { fetch: typeof fetch; maxRetries: number; retryable: boolean; signal: AbortSignal | undefined };

/**
 * Sends a prepared request until it gets an answer worth returning: a 2xx is returned, any other
 * status is thrown as a BerthError, and a network error or a 429/502/503/504 is tried again (when
 * `retryable`) up to `maxRetries` times with the same headers, so a POST keeps its Idempotency-Key.
 */
export async function sendWithRetries(request: PreparedRequest, policy: SendPolicy): Promise<Response> {
  const streamed = typeof ReadableStream !== 'undefined' && request.body instanceof ReadableStream;
  // a stream is read by the first attempt: there is nothing left to send again
  const retries = policy.retryable && !streamed ? policy.maxRetries : 0;
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      const init = { method: request.method, headers: request.headers, body: request.body, signal: policy.signal, ...(streamed ? { duplex: 'half' } : {}) };
      response = await policy.fetch(request.url, init as RequestInit);
    } catch (error) {
      if (policy.signal?.aborted) throw error;
      if (attempt >= retries)
        throw new BerthConnectionError(`${request.method} ${request.url} got no answer: ${(error as Error)?.message ?? error}`, { cause: error });
      await sleep(retryDelayMs(attempt, null), policy.signal);
      continue;
    }
    if (response.ok) return response;
    if (attempt >= retries || !RETRYABLE_STATUSES.has(response.status)) throw await errorFromResponse(response);
    await response.body?.cancel();
    await sleep(retryDelayMs(attempt, retryAfterSeconds(response.headers.get('retry-after'))), policy.signal);
  }
}
