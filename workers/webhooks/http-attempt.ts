import http from 'node:http';
import https from 'node:https';
import { guardedLookup, InternalTarget, isInternalAddress, literalAddressOf } from '../../shared/domains/webhooks/target-guard.ts';

/** How much of a request and an answer the delivery log keeps. */
export const EXCERPT_BYTES = 4096;
const HEADER_VALUE_MAX = 500;

export type AttemptResult = {
  startedAt: Date;
  durationMs: number;
  status: number | null;
  headers: Record<string, string> | null;
  body: string | null;
  /** Why no answer came (refused, timed out, not allowed...); null when one came. */
  error: string | null;
};

/**
 * One POST of a delivery. Redirects are not followed (a 3xx is an answer, and not a success), the
 * whole exchange has `timeoutMs`, and only the first EXCERPT_BYTES of the answer are read. Unless
 * `allowPrivate`, internal addresses are refused: a literal one before connecting, a name at the
 * moment it is resolved for the connection.
 */
export async function postOnce(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<AttemptResult> {
  const startedAt = new Date();
  const started = performance.now();
  const done = (result: Omit<AttemptResult, 'startedAt' | 'durationMs'>): AttemptResult => ({
    startedAt,
    durationMs: Math.round(performance.now() - started),
    ...result,
  });
  const url = new URL(target);
  const literal = literalAddressOf(url);
  if (!options.allowPrivate && literal !== null && isInternalAddress(literal)) {
    return done({ status: null, headers: null, body: null, error: `not sent: ${literal} is an internal address` });
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<AttemptResult, 'startedAt' | 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(done(result));
    };
    const request = client.request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      ...(options.allowPrivate ? {} : { lookup: guardedLookup as never }),
      agent: false,
    });
    const timer = setTimeout(() => finish({ status: null, headers: null, body: null, error: `timed out after ${options.timeoutMs} ms` }), options.timeoutMs);
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const answered = () =>
        finish({
          status: response.statusCode ?? null,
          headers: headersOf(response.headers),
          body: storable(Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8')),
          error: null,
        });
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= EXCERPT_BYTES) answered();
      });
      response.on('end', answered);
      response.on('error', answered);
    });
    request.on('error', (error: NodeJS.ErrnoException) => finish({ status: null, headers: null, body: null, error: describe(error) }));
    request.end(body);
  });
}

/** Text Postgres can store: a receiver's NUL bytes become U+FFFD. */
function storable(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD');
}

function headersOf(raw: http.IncomingHttpHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined || name === 'set-cookie') continue;
    kept[storable(name)] = storable((Array.isArray(value) ? value.join(', ') : value).slice(0, HEADER_VALUE_MAX));
  }
  return kept;
}

const ERROR_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the receiver',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved (temporary DNS failure)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed by the receiver',
};

function describe(error: NodeJS.ErrnoException): string {
  if (error instanceof InternalTarget) return `not sent: ${error.message}`;
  const words = error.code ? ERROR_WORDS[error.code] : undefined;
  if (words) return words;
  if (error.code?.startsWith('ERR_TLS') || error.code?.includes('CERT') || error.code?.startsWith('SELF_SIGNED')) return `TLS: ${error.message}`;
  return storable(error.message.slice(0, 300));
}
