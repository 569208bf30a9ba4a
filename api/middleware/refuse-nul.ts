import type { NextFunction, Request, Response } from 'express';
import { ValidationFailed } from '../../shared/errors.ts';

const MAX_DEPTH = 64;
const MAX_NAMED = 50;
export const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';

/** The paths of the strings (values or keys) holding U+0000 in a parsed JSON body, at most MAX_NAMED. */
export function nulPaths(value: unknown, path: string[] = [], found: string[] = [], depth = 0): string[] {
  if (found.length >= MAX_NAMED) return found;
  if (typeof value === 'string') {
    if (value.includes('\u0000')) found.push(path.join('.') || 'body');
    return found;
  }
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return found;
  for (const [key, child] of Object.entries(value)) {
    if (key.includes('\u0000')) found.push([...path, key.replaceAll('\u0000', '\\u0000')].join('.'));
    else nulPaths(child, [...path, key], found, depth + 1);
  }
  return found;
}

/**
 * A JSON body whose strings hold U+0000 is refused (422 naming each such field) before any route
 * sees it: Postgres text cannot store it, so it would otherwise end as a 500 wherever it is
 * written, and no field of this API has a use for it.
 */
export function refuseNulCharacters(req: Request, _res: Response, next: NextFunction): void {
  const paths = req.body === undefined ? [] : nulPaths(req.body);
  next(paths.length === 0 ? undefined : new ValidationFailed(paths.map((field) => ({ field, message: NUL_MESSAGE }))));
}
