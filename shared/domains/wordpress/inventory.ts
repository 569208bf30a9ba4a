import { z } from 'zod';
import type { WordpressInventory } from '../../db/models.ts';

/**
 * What the helper reports runs in a site. The helper runs inside the tenant's container, where the
 * tenant's own PHP (a must-use plugin, a shutdown hook) can print anything after it, so its answer
 * is untrusted input: it is checked here, with bounds, before it is stored and served by the API.
 */
const text = z.string().max(1000);
const MAX_PACKAGES = 5000;

export const wordpressInventorySchema = z.object({
  version: text,
  db_version: z.number().int(),
  php_version: text,
  php: text,
  mysql_version: text,
  home: z.string().max(4000),
  siteurl: z.string().max(4000),
  blogname: text,
  locale: text,
  theme: text,
  plugins: z.array(z.object({ plugin: text, slug: text, name: text, version: text, active: z.boolean() })).max(MAX_PACKAGES),
  themes: z.array(z.object({ theme: text, name: text, version: text, parent: text.nullable(), active: z.boolean() })).max(MAX_PACKAGES),
}) satisfies z.ZodType<WordpressInventory>;

/** The inventory, or a sentence saying which field is wrong (for the step's failure). */
export function readInventory(answer: unknown): { inventory: WordpressInventory } | { problem: string } {
  const parsed = wordpressInventorySchema.safeParse(answer);
  if (parsed.success) return { inventory: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { problem: `${issue.path.join('.') || 'answer'}: ${issue.message}` };
}
