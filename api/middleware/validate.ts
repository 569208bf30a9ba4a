import { z } from 'zod';
import { ValidationFailed } from '../../shared/errors.ts';
import { NUL_MESSAGE, nulPaths } from './refuse-nul.ts';

/** The largest id a row can have: every id column is a Postgres `integer`. */
export const MAX_ROW_ID = 2_147_483_647;

/** An id in a JSON body: a positive integer a row can have, so a larger one is a 422, not an out-of-range query (500). */
export const rowId = () => z.number().int().min(1).max(MAX_ROW_ID);

/**
 * Parses a request part with its schema; every failing field is named in the error. A string
 * holding U+0000 fails first (Postgres text cannot store or compare it: `GET /v1/activity?target_id=%00`
 * was a 500); JSON bodies are refused earlier, by refuseNulCharacters, this covers what a route
 * reads from its query and path.
 */
export function parseOrFail<Schema extends z.ZodType>(schema: Schema, value: unknown): z.infer<Schema> {
  const withNul = nulPaths(value);
  if (withNul.length > 0) throw new ValidationFailed(withNul.map((field) => ({ field, message: NUL_MESSAGE })));
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  throw new ValidationFailed(
    result.error.issues.flatMap((issue) => {
      const at = issue.path.map(String);
      // An unknown key is named itself, not by the object that holds it (which is '' at the top).
      if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ field: [...at, key].join('.'), message: 'is not a known field' }));
      return [{ field: at.join('.'), message: issue.message }];
    }),
  );
}
