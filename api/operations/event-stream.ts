import { once } from 'node:events';
import type { Request, Response } from 'express';
import type { Context } from '../../shared/context.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { eventStreamQuery } from './operation-events.schemas.ts';

const KEEPALIVE_MS = 15_000;

/** Writes a chunk of the stream; resolves once it is written (or the client has gone). */
export type StreamWrite = (chunk: string) => Promise<void>;

/** The id to resume after: the Last-Event-ID header, else `?last_event_id=`; undefined when neither is sent. */
export function resumeAfter(req: Request): number | undefined {
  const header = req.get('last-event-id');
  const { last_event_id: id } = parseOrFail(eventStreamQuery, header === undefined ? req.query : { last_event_id: header });
  return id === undefined ? undefined : Number(id);
}

/**
 * Answers with a Server-Sent Events stream written by `produce` until it returns, the client goes,
 * or the stream's lifetime (EVENT_STREAM_LIFETIME_MS) ends: `stop` is aborted then. Shared by the
 * operation events and the environment logs' live tail.
 */
export async function serveEventStream(
  ctx: Context,
  req: Request,
  res: Response,
  produce: (stop: AbortSignal, write: StreamWrite) => Promise<void>,
): Promise<void> {
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  // Credentials are checked when a stream opens, so no stream outlives its lifetime: the client
  // reconnects, resuming, and a revoked session or a removed member is refused then.
  const stop = AbortSignal.any([gone.signal, AbortSignal.timeout(ctx.config.eventStreamLifetimeMs)]);
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  const write: StreamWrite = async (chunk) => {
    if (gone.signal.aborted) return;
    if (!res.write(chunk)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
  };
  await write('retry: 2000\n\n');
  const keepalive = setInterval(() => void write(': keepalive\n\n'), KEEPALIVE_MS);
  try {
    await produce(stop, write);
  } catch (error) {
    // The headers are gone: the error can only end the stream (the client reconnects and resumes).
    req.log.error({ err: (error as Error).message }, 'event stream failed');
  } finally {
    clearInterval(keepalive);
    res.end();
  }
}
