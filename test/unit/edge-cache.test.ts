import { describe, expect, it } from 'vitest';
import { exclusionProblems, pageCacheDir, purgePathProblems, renderPageCache } from '../../shared/wordpress/edge-cache.ts';
import { renderEdgeSite } from '../../shared/wordpress/edge-site.ts';

const site = { key: 'env-7', hosts: ['www.example.com'], filesRoot: '/srv/sites/env-7/files', fastcgiSocket: '/srv/sites/env-7/run/php-fpm.sock' };

/** The PHP location of a rendered site file. */
function phpLocation(config: string): string {
  const start = config.indexOf('location ~ \\.php$ {');
  return config.slice(start, config.indexOf('\n    }', start));
}

describe("an environment's page cache at the edge", () => {
  it('declares its own cache directory and keys zone before its server block, and its PHP location uses only that zone', () => {
    const config = renderEdgeSite({ ...site, cache: { exclusions: [] } });
    const path = config.indexOf('fastcgi_cache_path /var/cache/berth/env-7 levels=1:2 keys_zone=berth_env_7:');
    expect(path).toBeGreaterThan(-1);
    expect(path).toBeLessThan(config.indexOf('server {'));
    expect(config).toMatch(/keys_zone=berth_env_7:\d+m max_size=\d+m inactive=\d+m/);
    expect(config.match(/fastcgi_cache_path/g)).toHaveLength(1);
    const location = phpLocation(config);
    expect(location).toContain('fastcgi_cache berth_env_7;');
    expect(location).toContain('fastcgi_cache_key $scheme$request_method$host$request_uri;');
    expect(location).toContain('fastcgi_cache_valid 200 301 302 10m;');
    expect(location).toContain('fastcgi_cache_bypass $berth_cache_skip;');
    expect(location).toContain('fastcgi_no_cache $berth_cache_skip;');
    expect(config.match(/fastcgi_cache berth_/g)).toEqual(['fastcgi_cache berth_']);
    expect(config).toContain('add_header X-Cache $upstream_cache_status always;');
    // Set-Cookie and Cache-Control: private/no-store keep their meaning (nginx does not store such answers)
    expect(config).not.toContain('fastcgi_ignore_headers');
  });

  it('skips the cache for other methods, query strings, WordPress and WooCommerce pages and cookies, and the platform probes', () => {
    const server = renderPageCache({ key: 'env-7', exclusions: [] }).server.join('\n');
    expect(server).toContain('if ($request_method !~ ^(GET|HEAD)$) { set $berth_cache_skip 1; }');
    expect(server).toContain('if ($request_uri ~ "\\?") { set $berth_cache_skip 1; }');
    expect(server).toContain('if ($http_x_berth_probe != "") { set $berth_cache_skip 1; }');
    const pathRules = [...server.matchAll(/\$request_uri ~\* "([^"]+)"/g)].map((match) => new RegExp(match[1]!, 'i'));
    const skipped = (uri: string) => pathRules.some((rule) => rule.test(uri));
    for (const uri of [
      '/wp-admin/',
      '/wp-admin',
      '/wp-json/wp/v2/posts',
      '/wp-login.php',
      '/xmlrpc.php',
      '/wp-cron.php',
      '/cart/',
      '/checkout/x',
      '/my-account/',
      '/feed/',
      '/blog/feed/',
      '/comments/feed',
      '/wp-rss2.php',
    ])
      expect(skipped(uri), uri).toBe(true);
    for (const uri of ['/', '/about/', '/cartography/', '/feedback/', '/blog/wp-admin-tips/']) expect(skipped(uri), uri).toBe(false);
    const cookies = new RegExp(/\$http_cookie ~\* "([^"]+)"/.exec(server)![1]!, 'i');
    for (const cookie of [
      'wordpress_logged_in_x=1',
      'a=b; comment_author_123=x',
      'wp-postpass_abc=1',
      'woocommerce_items_in_cart=1',
      'woocommerce_cart_hash=x',
      'wp_woocommerce_session_9=y',
    ])
      expect(cookies.test(cookie), cookie).toBe(true);
    expect(cookies.test('wordpress_test_cookie=WP+Cookie+check; _ga=1')).toBe(false);
  });

  it("matches the environment's exclusions as literal prefixes, whatever regex characters they hold", () => {
    const server = renderPageCache({ key: 'env-7', exclusions: ['/shop/', '/a.b(c)|*+?[x]^'] }).server.join('\n');
    const rules = [...server.matchAll(/\$request_uri ~ "(\^[^"]+)"/g)].map((match) => new RegExp(match[1]!));
    expect(rules).toHaveLength(2);
    expect(rules[0]!.test('/shop/item')).toBe(true);
    expect(rules[0]!.test('/shopping/')).toBe(false);
    expect(rules[1]!.test('/a.b(c)|*+?[x]^/more')).toBe(true);
    expect(rules[1]!.test('/aXb(c)|*+?[x]^')).toBe(false);
  });

  it('renders no cache and no X-Cache header when the environment has none', () => {
    const config = renderEdgeSite(site);
    expect(config).not.toContain('fastcgi_cache');
    expect(config).not.toContain('X-Cache');
  });

  it('refuses exclusions that could leave their directive, and more than 50', () => {
    expect(exclusionProblems(['/shop/', '/my-account/orders', '/~user/'])).toEqual([]);
    for (const bad of ['shop/', '/a/../b', '/a b', '/a"b', "/a'b", '/a{b', '/a}b', '/a;b', '/a$b', '/a\\b', '/a\nb', '/a`b', `/${'x'.repeat(200)}`])
      expect(exclusionProblems([bad]), JSON.stringify(bad)).toHaveLength(1);
    expect(exclusionProblems(Array.from({ length: 51 }, (_, i) => `/p${i}`))).toEqual(['at most 50 exclusions']);
    expect(() => renderPageCache({ key: 'env-7', exclusions: ['/a;b'] })).toThrow(/exclusions/);
    expect(() => pageCacheDir('env-7/../env-8')).toThrow();
  });

  it('refuses purge paths without a leading slash, with .. or control characters, and more than 100', () => {
    expect(purgePathProblems(['/', '/about/', '/blog/*', '/a b'])).toEqual(['3: no whitespace or control characters']);
    expect(purgePathProblems(['about'])).toEqual(['0: must start with /']);
    expect(purgePathProblems(['/a/../b'])).toEqual(['0: no .. segment']);
    expect(purgePathProblems(['/..*'])).toEqual(['0: no .. segment']);
    expect(purgePathProblems(['/a\u0000'])).toHaveLength(1);
    expect(purgePathProblems(Array.from({ length: 101 }, () => '/'))).toEqual(['at most 100 paths']);
  });
});
