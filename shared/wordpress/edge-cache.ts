/**
 * The page cache of one environment at the edge (nginx's FastCGI cache), rendered into its edge site
 * file by edge-site.ts. Each environment has its own cache directory and its own keys zone, declared
 * in its own file, so one environment's pages are never stored in nor served from another's, and a
 * purge of one (ops/images/edge/purge.sh, `berth-edge-purge <key>`) touches only its directory.
 *
 * What is never cached (neither served from the cache nor stored in it): methods other than GET and
 * HEAD, any query string, WordPress's admin, login, REST API, XML-RPC, cron and feeds, WooCommerce's
 * cart, checkout and account pages, visitors with a login, comment, post-password or WooCommerce
 * cart/session cookie, the environment's own excluded path prefixes, and every request carrying
 * `X-Berth-Probe` (the platform's verify steps see the site as it is, not as it was cached).
 * Responses that set a cookie or say private/no-store/no-cache are not stored: nginx's defaults,
 * which no `fastcgi_ignore_headers` here weakens.
 */

/** Where the edge keeps the environments' caches (made by the edge image, root's; each env-<id> below it is nginx's). */
export const EDGE_CACHE_ROOT = '/var/cache/berth';
/** How long a page (200, 301, 302) is served from the cache before PHP renders it again. */
export const PAGE_CACHE_TTL = '10m';
/** A cached page nobody asked for in this long is dropped. */
const PAGE_CACHE_INACTIVE = '60m';
/** At most this much disk per environment (nginx's cache manager removes the least recently used pages past it). */
const PAGE_CACHE_MAX_SIZE = '256m';
/** Shared memory for the keys of one environment (1 MB holds about 8,000 keys). */
const PAGE_CACHE_KEYS_ZONE_SIZE = '2m';

export const PAGE_CACHE_LIMITS = { exclusions: 50, exclusionLength: 200, purgePaths: 100, purgePathLength: 2048 } as const;

/** The edge image's purge script (ops/images/edge/purge.sh): `berth-edge-purge <key> [path...]`. */
export const EDGE_PURGE_COMMAND = ['berth-edge-purge'] as const;
/** nginx's workers' user in the edge image, who owns the cache files (the purge runs as it, not as root). */
export const EDGE_WORKER_USER = 'nginx';

/** The request header of the platform's own probes (verify steps): such a request always bypasses the cache. */
export const PROBE_HEADER = 'X-Berth-Probe';

export interface EdgePageCache {
  /** The environment's key (`env-<id>`): its cache directory and zone are named after it. */
  key: string;
  /** Path prefixes never cached (each starts with `/`; see exclusionProblems). */
  exclusions: readonly string[];
}

const keyPattern = /^env-[0-9]{1,12}$/;

/** The cache directory of an environment as the edge sees it. */
export function pageCacheDir(key: string): string {
  if (!keyPattern.test(key)) throw new Error('page cache: not an environment key');
  return `${EDGE_CACHE_ROOT}/${key}`;
}

function zoneName(key: string): string {
  return `berth_${key.replace('-', '_')}`;
}

// printable ASCII without whitespace, quotes, braces, semicolons, `$` or backslashes: nothing that could end an nginx string or directive
const unsafeInDirective = /["'`{};$\\]/;
const printable = /^[\x21-\x7e]*$/;

/** What is wrong with an environment's exclusions (empty: nothing). */
export function exclusionProblems(exclusions: readonly string[]): string[] {
  const problems: string[] = [];
  if (exclusions.length > PAGE_CACHE_LIMITS.exclusions) problems.push(`at most ${PAGE_CACHE_LIMITS.exclusions} exclusions`);
  exclusions.forEach((prefix, index) => {
    const problem = pathProblem(prefix, PAGE_CACHE_LIMITS.exclusionLength);
    if (problem) problems.push(`${index}: ${problem}`);
    else if (unsafeInDirective.test(prefix)) problems.push(`${index}: no quotes, braces, semicolons, $ or backslashes`);
  });
  return problems;
}

/** What is wrong with the paths of a purge (empty: nothing); `prefix*` purges every page below the prefix. */
export function purgePathProblems(paths: readonly string[]): string[] {
  const problems: string[] = [];
  if (paths.length > PAGE_CACHE_LIMITS.purgePaths) problems.push(`at most ${PAGE_CACHE_LIMITS.purgePaths} paths`);
  paths.forEach((path, index) => {
    const problem = pathProblem(path, PAGE_CACHE_LIMITS.purgePathLength);
    if (problem) problems.push(`${index}: ${problem}`);
  });
  return problems;
}

function pathProblem(path: string, maxLength: number): string | undefined {
  if (!path.startsWith('/')) return 'must start with /';
  if (path.length > maxLength) return `at most ${maxLength} characters`;
  if (!printable.test(path)) return 'no whitespace or control characters';
  if (path.split(/[/?*]/).includes('..')) return 'no .. segment';
  return undefined;
}

/** A literal for PCRE: letters, digits, `/`, `_` and `-` as they are, anything else as \xHH (no regex or nginx meaning left). */
function literalRegex(text: string): string {
  return [...text].map((char) => (/[A-Za-z0-9/_-]/.test(char) ? char : `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`)).join('');
}

/** The directives of an environment's page cache: `http` before its server block, `server` inside it, `location` in its PHP location. */
export function renderPageCache(cache: EdgePageCache): { http: string[]; server: string[]; location: string[] } {
  const problems = exclusionProblems(cache.exclusions);
  if (problems.length > 0) throw new Error(`page cache exclusions: ${problems.join('; ')}`);
  const dir = pageCacheDir(cache.key);
  const zone = zoneName(cache.key);
  const skip = '$berth_cache_skip';
  const skipWhen = (test: string) => `    if (${test}) { set ${skip} 1; }`;
  return {
    http: [
      `# page cache of ${cache.key}: its own directory and keys zone, written by no other site`,
      `fastcgi_cache_path ${dir} levels=1:2 keys_zone=${zone}:${PAGE_CACHE_KEYS_ZONE_SIZE} max_size=${PAGE_CACHE_MAX_SIZE} inactive=${PAGE_CACHE_INACTIVE} use_temp_path=off;`,
      '',
    ],
    server: [
      '    # page cache: what is never cached (matched on the request as sent, so the same after try_files)',
      `    set ${skip} 0;`,
      skipWhen('$request_method !~ ^(GET|HEAD)$'),
      skipWhen('$request_uri ~ "\\?"'),
      skipWhen('$request_uri ~* "^/(wp-admin|wp-json|cart|checkout|my-account)(/|$)"'),
      skipWhen('$request_uri ~* "^/(wp-login|xmlrpc|wp-cron|wp-comments-post|wp-(rss2?|atom|rdf|commentsrss2))\\.php"'),
      skipWhen('$request_uri ~* "/feed(/|$)"'),
      skipWhen('$http_cookie ~* "wordpress_logged_in_|comment_author_|wp-postpass_|woocommerce_items_in_cart|woocommerce_cart_hash|wp_woocommerce_session_"'),
      skipWhen('$http_x_berth_probe != ""'),
      ...cache.exclusions.map((prefix) => skipWhen(`$request_uri ~ "^${literalRegex(prefix)}"`)),
      // at server level, so PHP and the other locations keep any header the server block adds; empty (not sent) for static files
      '    add_header X-Cache $upstream_cache_status always;',
      '',
    ],
    location: [
      `        fastcgi_cache ${zone};`,
      '        fastcgi_cache_key $scheme$request_method$host$request_uri;',
      `        fastcgi_cache_valid 200 301 302 ${PAGE_CACHE_TTL};`,
      // POST too, so that nginx weighs it (and says BYPASS: it is always skipped) instead of passing it by without a status
      '        fastcgi_cache_methods GET HEAD POST;',
      `        fastcgi_cache_bypass ${skip};`,
      `        fastcgi_no_cache ${skip};`,
      '        fastcgi_cache_lock on;',
      '        fastcgi_cache_use_stale error timeout updating http_500 http_503;',
    ],
  };
}
