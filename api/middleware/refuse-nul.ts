import type { NextFunction, Request, Response } from 'express';
import { ValidationFailed } from '../../shared/errors.ts';

const MAX_DEPTH = 64;

/** The path of the first string (value or key) holding U+0000 in a parsed JSON body, or null. */
export function nulPath(value: unknown, path: string[] = [], depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') || 'body' : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  for (const [key, child] of Object.entries(value)) {
    if (key.includes('\u0000')) return [...path, key.replaceAll('\u0000', '\\u0000')].join('.');
    const found = nulPath(child, [...path, key], depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * A JSON body whose strings hold U+0000 is refused (422 naming the field) before any route sees it:
 * Postgres text cannot store it, so it would otherwise end as a 500 wherever it is written, and no
 * field of this API has a use for it.
 */
export function refuseNulCharacters(req: Request, _res: Response, next: NextFunction): void {
  const path = req.body === undefined ? null : nulPath(req.body);
  next(path === null ? undefined : ValidationFailed.field(path, 'must not contain the NUL character (\\u0000)'));
}
