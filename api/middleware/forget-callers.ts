import type { NextFunction, Request, Response } from 'express';
import type { PrincipalCache } from '../../shared/domains/auth/principal-cache.ts';

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Read your own writes: a change's notification reaches this process a moment after its commit,
 * possibly after its answer, and the caller's next request could still find the old caller in
 * memory (a revoked session, the old role). So an unsafe request empties this process's principal
 * cache as its answer is sent, after its commit; other processes drop their entries when they hear
 * the notification. Writes are rare beside reads, so the cost is a few misses.
 */
export function forgetCallersAfterWrites(principals: PrincipalCache) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!unsafeMethods.has(req.method)) return next();
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.end = ((...args: unknown[]) => {
      principals.forgetAll();
      return end(...args);
    }) as Response['end'];
    next();
  };
}
