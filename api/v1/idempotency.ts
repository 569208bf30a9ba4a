import type { NextFunction, Request, Response } from 'express';
import type { Context } from '../../shared/context.ts';

// Placeholder: Idempotency-Key handling is being written.
export function idempotency(_ctx: Context) {
  return (_req: Request, _res: Response, next: NextFunction) => next();
}
