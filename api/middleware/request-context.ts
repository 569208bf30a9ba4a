import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../../shared/logger.ts';

const incomingIdPattern = /^[A-Za-z0-9._-]{8,64}$/;

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
    log: Logger;
  }
}

/**
 * Gives each request an id (a well-formed X-Request-Id from a proxy is kept), echoes it in the
 * response header, binds it to a child logger, and logs one line when the response is done.
 */
export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get('x-request-id');
    req.id = incoming && incomingIdPattern.test(incoming) ? incoming : randomUUID();
    req.log = logger.child({ request_id: req.id });
    res.setHeader('X-Request-Id', req.id);
    const started = process.hrtime.bigint();
    req.log.debug({ method: req.method, path: req.originalUrl.split('?')[0] }, 'request received');
    res.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      req.log.info(
        { method: req.method, path: req.originalUrl.split('?')[0], status: res.statusCode, duration_ms: Math.round(durationMs * 10) / 10, ip: clientIp(req) },
        'request',
      );
    });
    next();
  };
}

/** The client address as the server saw it: X-Forwarded-For counts only from TRUSTED_PROXIES. */
export function clientIp(req: Request): string | null {
  // Once the socket is gone (a client that hung up mid-body) there is no address to read.
  if (!req.socket) return null;
  const ip = req.ip ?? req.socket.remoteAddress ?? null;
  return ip?.startsWith('::ffff:') ? ip.slice(7) : ip;
}
