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
 * response header, binds it to a child logger (made the first time a route logs), and logs one line
 * when the response is done. That line holds only the fields named here, none of them a secret, so
 * it is written by a child without redaction: pino's redaction of the configured paths costs about
 * 100 µs a line, more than the rest of a small request.
 */
export function requestContext(logger: Logger) {
  const lines = logger.child({}, { redact: [] });
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get('x-request-id');
    const id = incoming && incomingIdPattern.test(incoming) ? incoming : randomUUID();
    req.id = id;
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', {
      configurable: true,
      enumerable: false,
      get: () => (child ??= logger.child({ request_id: id })),
      set: (value: Logger) => {
        child = value;
      },
    });
    res.setHeader('X-Request-Id', id);
    const started = process.hrtime.bigint();
    if (lines.isLevelEnabled('debug')) lines.debug({ request_id: id, method: req.method, path: req.originalUrl.split('?')[0] }, 'request received');
    if (lines.isLevelEnabled('info')) {
      res.on('finish', () => {
        const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
        lines.info(
          {
            request_id: id,
            method: req.method,
            path: req.originalUrl.split('?')[0],
            status: res.statusCode,
            duration_ms: Math.round(durationMs * 10) / 10,
            ip: clientIp(req),
          },
          'request',
        );
      });
    }
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
