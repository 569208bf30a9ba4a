import { z } from 'zod';

/** `?page=&page_size=` of every list, as the query string carries them: digits only, then bounded. */
const pageNumber = (fallback: number, max: number, description: string) =>
  z
    .string()
    .regex(/^\d{1,6}$/, { error: 'must be a whole number' })
    .transform(Number)
    .pipe(z.number().int().min(1).max(max))
    .default(fallback)
    .describe(description);

/** page from 1 (default 1), page_size 1 to 100 (default 20). */
export const pageQuery = z.object({
  page: pageNumber(1, 999_999, 'Page number, from 1 (default 1)'),
  page_size: pageNumber(20, 100, 'Items per page, 1 to 100 (default 20)'),
});
