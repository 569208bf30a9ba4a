import { z } from 'zod';
import { PAGE_CACHE_LIMITS, PAGE_CACHE_TTL } from '../../shared/wordpress/edge-cache.ts';

export const pageCacheDescription =
  "The edge's page cache of an environment (nginx's FastCGI cache, its own directory and zone per environment): " +
  `a page (200, 301, 302) is kept ${PAGE_CACHE_TTL}, and every answer through PHP says \`X-Cache: HIT|MISS|BYPASS|EXPIRED|…\`. ` +
  'Never cached: methods other than GET and HEAD, any query string, `/wp-admin/`, `/wp-json/`, `/wp-login.php`, `/xmlrpc.php`, ' +
  '`/wp-cron.php`, feeds, `/cart/`, `/checkout/`, `/my-account/`, visitors with a `wordpress_logged_in_*`, `comment_author_*`, ' +
  '`wp-postpass_*`, `woocommerce_items_in_cart`, `woocommerce_cart_hash` or `wp_woocommerce_session_*` cookie, answers that set a ' +
  "cookie or say private/no-store/no-cache, the environment's own `exclusions`, and the platform's probes. On by default for " +
  'production, off for staging and development. Pushes, restores, PHP, plugin and theme changes, certificates and domain changes ' +
  'purge it on their own. See docs/api/edge.md.';

const exclusion = z.string().describe('A path prefix (starts with `/`, no `..`, no whitespace, quotes, braces, `;`, `$` or `\\`)');

export const pageCacheBody = z
  .strictObject({
    enabled: z.boolean().optional().describe('Cache pages at the edge'),
    exclusions: z
      .array(exclusion)
      .max(PAGE_CACHE_LIMITS.exclusions)
      .optional()
      .describe(
        `Path prefixes never cached (replaces the list; at most ${PAGE_CACHE_LIMITS.exclusions}, each at most ${PAGE_CACHE_LIMITS.exclusionLength} characters)`,
      ),
  })
  .refine((body) => body.enabled !== undefined || body.exclusions !== undefined, { error: 'give enabled and/or exclusions' });

export const purgeBody = z.strictObject({
  paths: z
    .array(z.string().describe('A path as requested (`/about/`), or a prefix ending in `*` (`/blog/*`); starts with `/`, no `..`, no control characters'))
    .max(PAGE_CACHE_LIMITS.purgePaths)
    .optional()
    .describe(`Only these pages (at most ${PAGE_CACHE_LIMITS.purgePaths}); absent or empty: every cached page of the environment`),
});
