import type { NextFunction, Request, Response } from 'express';
import type { Context } from '../../shared/context.ts';

// Placeholder: the /v1 rate limiter (100/min with a burst of 10/s) is being written.
export function v1RateLimit(_ctx: Context) {
  return (_req: Request, _res: Response, next: NextFunction) => next();
}
