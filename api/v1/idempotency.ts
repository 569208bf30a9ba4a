import { createHash, randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Context } from '../../shared/context.ts';
import { ValidationFailed } from '../../shared/errors.ts';
import { metaOf } from './envelope.ts';
import { rateLimitSubject } from './principal.ts';

/** Methods whose repeat must not repeat the effect; GET, HEAD and OPTIONS ignore the header. */
const idempotentMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** 1 to 255 visible ASCII characters (a UUID is the usual choice). */
const keyPattern = /^[\x21-\x7e]{1,255}$/;
/** How long a finished answer is replayed. */
const RECORD_TTL_MS = 24 * 60 * 60 * 1000;
/** How long an in-flight claim holds when its process dies before answering. */
const IN_FLIGHT_TTL_MS = 5 * 60 * 1000;
/** Response headers replayed with the stored answer (the rate-limit and request-id ones are fresh). */
const replayedHeaders = ['location'];

type InFlight = { state: 'in_progress'; fingerprint: string; owner: string };
type Finished = { state: 'done'; fingerprint: string; status: number; body: unknown; headers: Record<string, string> };
type IdempotencyRecord = InFlight | Finished;

// Claims the key unless a record exists; returns the record that was there.
const claimScript = `
local existing = redis.call('GET', KEYS[1])
if existing then return existing end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false`;

// Replaces (ARGV[2] set) or releases (ARGV[2] empty) the claim, only while it is still ours.
const settleScript = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
return 1`;

/**
 * Idempotency-Key on unsafe /v1 requests, scoped to the caller (session or IP), the method and the
 * path. The first request claims the key with the SHA-256 of its canonical JSON body; its answer
 * (status < 500) is kept 24 h and replayed to a repeat with the same body (`Idempotent-Replayed:
 * true`). A different body, or a repeat while the first is in flight, answers 409 CONFLICT. A 5xx
 * answer releases the key so a retry runs. A route may set `res.locals.idempotencyRedact` to keep a
 * secret out of the stored copy (its replay then says the secret is no longer available), or return
 * undefined to keep nothing (the request then runs again when repeated). Without Redis a keyed request fails (500): letting it
 * through could run it twice.
 *
 * Requests for which `streamed(req)` holds (a file upload, whose body the route reads as a stream
 * after its permission check) are left to `streamedIdempotency`, which the route runs itself.
 */
export function idempotency(ctx: Context, options: { streamed?: (req: Request) => boolean } = {}) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (options.streamed?.(req)) return next();
    await keyed(ctx, req, res, next, { now: () => sha256(canonicalJson(req.body ?? null)) });
  };
}

/**
 * Idempotency-Key for a route that streams its body (`POST /v1/uploads`), run by the route after its
 * permission check so nothing is read for a caller who may not upload. The body's fingerprint is the
 * SHA-256 of its bytes with the query string (`bytesFingerprint`), known only once the route has
 * read them: the route sets `res.locals.idempotencyFingerprint`. A repeat of a finished request has
 * its body hashed as it streams (never held; at most `maxBytes` read) and compared. An answer given
 * before the whole body was read (413, a quota, a body that is not a zip) is not kept: a repeat runs again.
 */
export function streamedIdempotency(ctx: Context, options: { maxBytes: number }) {
  return async (req: Request, res: Response, next: NextFunction) => {
    await keyed(ctx, req, res, next, {
      later: () => hashStream(req, options.maxBytes).then((hash) => (hash === null ? 'too_large' : bytesFingerprint(req, hash))),
    });
  };
}

/** The fingerprint of a file body: its SHA-256 (hex) with the query string, which names the file (`?filename=`). */
export function bytesFingerprint(req: Request, bodySha256: string): string {
  return sha256(`bytes:${bodySha256}\n${req.originalUrl.split('?')[1] ?? ''}`);
}

/** `now`: the fingerprint is known before the route runs; `later`: the route sets it, and a repeat computes its own. */
type Fingerprinting = { now: () => string } | { later: () => Promise<string> };

async function keyed(ctx: Context, req: Request, res: Response, next: NextFunction, fingerprinting: Fingerprinting): Promise<void> {
  const key = req.get('idempotency-key');
  if (key === undefined || !idempotentMethods.has(req.method)) return next();
  if (!keyPattern.test(key)) throw ValidationFailed.field('Idempotency-Key', 'must be 1 to 255 visible ASCII characters');

  const path = req.originalUrl.split('?')[0];
  const redisKey = `${ctx.config.redisPrefix}:idem:${sha256([rateLimitSubject(req, res), req.method, path, key].join('\n'))}`;
  const known = 'now' in fingerprinting ? fingerprinting.now() : null;
  const claim = JSON.stringify({ state: 'in_progress', fingerprint: known ?? 'pending', owner: randomUUID() } satisfies InFlight);
  const existing = (await ctx.redis.eval(claimScript, 1, redisKey, claim, String(IN_FLIGHT_TTL_MS))) as string | null;

  if (existing !== null) {
    const record = JSON.parse(existing) as IdempotencyRecord;
    if (known !== null && record.fingerprint !== known) {
      return conflict(req, res, 'fingerprint_mismatch', 'This Idempotency-Key was used with a different request body');
    }
    if (record.state === 'in_progress') {
      return conflict(req, res, 'in_progress', 'A request with this Idempotency-Key is still being processed');
    }
    if (known === null && 'later' in fingerprinting && record.fingerprint !== (await fingerprinting.later())) {
      return conflict(req, res, 'fingerprint_mismatch', 'This Idempotency-Key was used with a different request body');
    }
    res.set(record.headers).setHeader('Idempotent-Replayed', 'true');
    res.status(record.status);
    return record.body === undefined ? void res.end() : void res.json(record.body);
  }

  let settled = false;
  const settle = async (status: number, body: unknown) => {
    if (settled) return;
    settled = true;
    try {
      // A route whose answer carries a secret shown once (an API token) says how to store it without.
      const redact = res.locals.idempotencyRedact as ((body: unknown) => unknown) | undefined;
      const stored = redact && body !== undefined ? redact(body) : body;
      const fingerprint = known ?? (res.locals.idempotencyFingerprint as string | undefined);
      // A redaction that keeps nothing (a sign-in), or a streamed body not read to its end, releases the key: a repeat runs again.
      const finished =
        status < 500 && !(redact && stored === undefined) && fingerprint !== undefined
          ? JSON.stringify({ state: 'done', fingerprint, status, body: stored, headers: headersToReplay(res) } satisfies Finished)
          : '';
      await ctx.redis.eval(settleScript, 1, redisKey, claim, finished, String(RECORD_TTL_MS));
    } catch (error) {
      req.log.error({ err: (error as Error).message }, 'idempotency record not saved');
    }
  };
  // The record is written before the answer leaves, so a client's retry never sees it in flight.
  const sendJson = res.json.bind(res);
  res.json = (body: unknown) => {
    void settle(res.statusCode, body)
      .then(() => sendJson(body))
      .catch((error: unknown) => {
        req.log.error({ err: error }, 'answer could not be sent');
        if (!res.headersSent) res.status(500).end();
      });
    return res;
  };
  // Answers that are not JSON (204, a stream): kept without a body once sent.
  res.on('finish', () => void settle(res.statusCode, undefined));
  next();
}

/** The hex SHA-256 of a request body read as it streams, or null past `maxBytes` (then reading stops). */
async function hashStream(req: Request, maxBytes: number): Promise<string | null> {
  const hash = createHash('sha256');
  let size = 0;
  // stopping early must leave the socket open for the answer
  for await (const piece of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    size += piece.length;
    if (size > maxBytes) return null;
    hash.update(piece);
  }
  return hash.digest('hex');
}

function conflict(req: Request, res: Response, reason: string, message: string): void {
  res.status(409).json({ error: { code: 'CONFLICT', message, details: { reason } }, meta: metaOf(req) });
}

function headersToReplay(res: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of replayedHeaders) {
    const value = res.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return headers;
}

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** JSON with object keys sorted at every depth, so `{a,b}` and `{b,a}` are the same body. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${canonicalJson((value as Record<string, unknown>)[name])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
