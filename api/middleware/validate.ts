import type { z } from 'zod';
import { ValidationFailed } from '../../shared/errors.ts';

/** Parses a request part with its schema; every failing field is named in the error. */
export function parseOrFail<Schema extends z.ZodType>(schema: Schema, value: unknown): z.infer<Schema> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  throw new ValidationFailed(
    result.error.issues.map((issue) => ({ field: issue.path.map(String).join('.'), message: issue.message })),
  );
}
