import { z } from 'zod';
import type { Environment } from '../../shared/db/models.ts';

export const pluginJson = z
  .object({
    plugin: z.string().describe('Its main file, e.g. `akismet/akismet.php`'),
    slug: z.string().describe('Its directory (or single-file) name: how paths name it'),
    name: z.string(),
    version: z.string(),
    active: z.boolean(),
  })
  .meta({ id: 'Plugin' });

export const themeJson = z
  .object({
    theme: z.string().describe('Its stylesheet (directory) name: how paths name it'),
    name: z.string(),
    version: z.string(),
    parent: z.string().nullable(),
    active: z.boolean(),
  })
  .meta({ id: 'Theme' });

export const wordpressJson = z
  .object({
    version: z.string().describe('WordPress core'),
    db_version: z.number().int(),
    php_version: z.string().describe('The full version, e.g. 8.2.32'),
    php: z.string().describe("Major.minor, as in the environment's php_version"),
    mysql_version: z.string(),
    home: z.string(),
    siteurl: z.string(),
    blogname: z.string(),
    locale: z.string(),
    theme: z.string().describe('The active theme'),
    plugins: z.array(pluginJson),
    themes: z.array(themeJson),
    checked_at: z.string().describe('ISO 8601 UTC: when a worker read this from the site (after each operation on it)'),
  })
  .meta({ id: 'WordPressInventory' });

export function wordpressView(environment: Environment): z.infer<typeof wordpressJson> | null {
  if (!environment.wordpress || !environment.wordpress_checked_at) return null;
  return { ...environment.wordpress, checked_at: environment.wordpress_checked_at.toISOString() };
}

export const installPackageBody = z.strictObject({
  upload_id: z.uuid().describe('A zip uploaded with POST /v1/uploads (uploads last 24 hours)'),
  activate: z.boolean().default(false).describe('Activate it once installed'),
  overwrite: z.boolean().default(false).describe('Replace an installed one of the same directory (an update); otherwise that is a failure'),
});
