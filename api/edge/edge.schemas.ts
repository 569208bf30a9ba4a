import { z } from 'zod';
import { PAGE_CACHE_LIMITS, PAGE_CACHE_TTL } from '../../shared/wordpress/edge-cache.ts';
import { HSTS_MAX_AGE_LIMIT_SECONDS } from '../../shared/wordpress/edge-site.ts';

export const httpsBody = z
  .strictObject({
    force: z
      .boolean()
      .optional()
      .describe(
        "Redirect HTTP to HTTPS (301, ACME challenges excepted) and move WordPress's URLs to https; false moves them back. Needs an installed certificate covering the address (409).",
      ),
    hsts_max_age_seconds: z
      .number()
      .int()
      .min(0)
      .max(HSTS_MAX_AGE_LIMIT_SECONDS)
      .optional()
      .describe('Strict-Transport-Security max-age while forced; 0 sends none. Browsers keep it: lower it before turning forcing off.'),
  })
  .refine((body) => body.force !== undefined || body.hsts_max_age_seconds !== undefined, { error: 'give force, hsts_max_age_seconds or both' });

export const passwordProtectionBody = z.strictObject({
  enabled: z.boolean().describe('true: HTTP basic auth in front of the whole environment (ACME challenges excepted); false: open'),
  username: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, { error: '1 to 64 letters, digits, . _ or -' })
    .optional()
    .describe('Kept when omitted'),
  password: z.string().min(8).max(128).optional().describe('8 to 128 characters; only its SHA-512-crypt hash is kept. Kept when omitted.'),
});

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
