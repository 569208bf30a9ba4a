import { renderPageCache, type EdgePageCache } from './edge-cache.ts';
import { WORDPRESS_RUNTIME } from './runtime.ts';

/**
 * The edge proxy's configuration for one site environment: one nginx `server` per file in
 * WORDPRESS_RUNTIME.edgeSitesDir, reloaded with WORDPRESS_RUNTIME.edgeReloadCommand. Static files
 * come from the environment's files as the edge sees them (read-only); PHP goes to php-fpm in the
 * environment's container over FastCGI on its unix socket, as the edge sees it (a site whose
 * container is being recreated answers 502, the others are untouched). WordPress's usual rules:
 * pretty permalinks (try_files → index.php), no dotfiles (.htaccess, .git...) except .well-known,
 * no wp-config.php, no PHP run from uploads, and no symbolic link followed below the site's root: a
 * tenant's link to another tenant's files (or the edge's own) is never served.
 */
export interface EdgeSite {
  /** Host names the site answers to (first one is the primary); lower-case DNS names, `*.` allowed first. */
  hosts: string[];
  /** The environment's files as the edge container sees them, e.g. /srv/sites/<env id>/files. */
  filesRoot: string;
  /** php-fpm's unix socket as the edge sees it, e.g. /srv/sites/<env id>/run/php-fpm.sock. */
  fastcgiSocket: string;
  /** The docroot inside the site container (SCRIPT_FILENAME is built from it). */
  docroot?: string;
  /** Largest request body (uploads), in megabytes. */
  maxUploadMegabytes?: number;
  /** Answer ACME HTTP-01 challenges for these hosts from this directory (as the edge sees it). */
  acmeChallengeRoot?: string;
  /** Host names answered with a permanent redirect to the first of `hosts` (the path and query kept). */
  redirectHosts?: string[];
  /** HTTPS on 443 too, with this certificate chain and key (paths as the edge sees them). */
  tls?: { certificate: string; key: string };
  /** Its page cache (edge-cache.ts); absent: pages are not cached and no X-Cache header is sent. */
  cache?: EdgePageCache;
}

const hostPattern = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const containerNamePattern = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,127}$/;
// no whitespace, quotes, braces, semicolons, $ or backslashes: nothing that could end a directive
const pathPattern = /^\/[A-Za-z0-9._/-]*$/;

/** Rejects what could break out of a directive; a site's config must never be able to affect another's. */
export function validateEdgeSite(site: EdgeSite): string[] {
  const problems: string[] = [];
  if (site.hosts.length === 0) problems.push('hosts: at least one host name');
  for (const host of [...site.hosts, ...(site.redirectHosts ?? [])]) {
    if (host.length > 253 || !hostPattern.test(host)) problems.push(`hosts: ${JSON.stringify(host)} is not a lower-case DNS name`);
  }
  if (site.hosts[0]?.startsWith('*.') && (site.redirectHosts ?? []).length > 0)
    problems.push('redirectHosts: the first host is a wildcard, nothing to redirect to');
  for (const [field, path] of [
    ['filesRoot', site.filesRoot],
    ['fastcgiSocket', site.fastcgiSocket],
    ['docroot', site.docroot],
    ['acmeChallengeRoot', site.acmeChallengeRoot],
    ['tls.certificate', site.tls?.certificate],
    ['tls.key', site.tls?.key],
  ] as const) {
    if (path !== undefined && (!pathPattern.test(path) || path.split('/').includes('..')))
      problems.push(`${field}: not an absolute path of letters, digits and . _ - /`);
  }
  const upload = site.maxUploadMegabytes ?? 64;
  if (!Number.isInteger(upload) || upload < 1 || upload > 10_240) problems.push('maxUploadMegabytes: 1 to 10240');
  return problems;
}

export function renderEdgeSite(site: EdgeSite): string {
  const problems = validateEdgeSite(site);
  if (problems.length > 0) throw new Error(`edge site config: ${problems.join('; ')}`);
  const docroot = site.docroot ?? WORDPRESS_RUNTIME.docroot;
  const acme = site.acmeChallengeRoot
    ? [
        '    location ^~ /.well-known/acme-challenge/ {',
        `        root ${site.acmeChallengeRoot};`,
        '        default_type text/plain;',
        '        try_files $uri =404;',
        '    }',
        '',
      ]
    : [];
  const cache = site.cache ? renderPageCache(site.cache) : { http: [], server: [], location: [] };
  return [
    `# Berth edge site: ${site.hosts[0]} (rendered by shared/wordpress/edge-site.ts; rewritten by the agent)`,
    ...cache.http,
    'server {',
    '    listen 80;',
    '    listen [::]:80;',
    ...(site.tls
      ? [
          '    listen 443 ssl;',
          '    listen [::]:443 ssl;',
          `    ssl_certificate ${site.tls.certificate};`,
          `    ssl_certificate_key ${site.tls.key};`,
          '    ssl_protocols TLSv1.2 TLSv1.3;',
        ]
      : []),
    `    server_name ${site.hosts.join(' ')};`,
    `    root ${site.filesRoot};`,
    '    index index.php index.html;',
    `    client_max_body_size ${site.maxUploadMegabytes ?? 64}m;`,
    "    # the edge sees every site's files and they all belong to www-data, so `if_not_owner` would",
    '    # let a link into another site through: no symbolic link at all below the root is followed',
    '    # (checked component by component with O_NOFOLLOW when opened, so it cannot be raced)',
    '    disable_symlinks on from=$document_root;',
    '',
    ...cache.server,
    ...acme,
    '    location ~ /\\.(?!well-known/) { deny all; }',
    '    location ~* ^/wp-config(?:-sample)?\\.php$ { deny all; }',
    '    location ~* ^/wp-content/uploads/.*\\.(?:php[0-9]?|phtml|phar|pht)$ { deny all; }',
    '',
    '    location / {',
    '        try_files $uri $uri/ /index.php?$args;',
    '    }',
    '',
    '    location ~ \\.php$ {',
    '        # the script has to exist in the files (the same files, mounted here read-only)',
    '        try_files $uri =404;',
    '        fastcgi_split_path_info ^(.+\\.php)(/.+)$;',
    '        include fastcgi_params;',
    `        fastcgi_param SCRIPT_FILENAME ${docroot}$fastcgi_script_name;`,
    `        fastcgi_param DOCUMENT_ROOT ${docroot};`,
    `        fastcgi_pass unix:${site.fastcgiSocket};`,
    ...cache.location,
    '    }',
    '',
    '    location ~* \\.(?:css|js|mjs|png|jpe?g|gif|webp|avif|svg|ico|woff2?|ttf)$ {',
    '        expires 7d;',
    '        try_files $uri /index.php?$args;',
    '    }',
    '}',
    '',
    ...redirectServer(site),
  ].join('\n');
}

/** The site's other names, each sent on to the primary (301; an ACME challenge is still answered there). */
function redirectServer(site: EdgeSite): string[] {
  if (!site.redirectHosts || site.redirectHosts.length === 0) return [];
  return [
    'server {',
    '    listen 80;',
    '    listen [::]:80;',
    `    server_name ${site.redirectHosts.join(' ')};`,
    ...(site.acmeChallengeRoot
      ? [
          '    location ^~ /.well-known/acme-challenge/ {',
          `        root ${site.acmeChallengeRoot};`,
          '        default_type text/plain;',
          '        try_files $uri =404;',
          '    }',
        ]
      : []),
    `    location / { return 301 http://${site.hosts[0]}$request_uri; }`,
    '}',
    '',
  ];
}

/** The file name of a site's config in WORDPRESS_RUNTIME.edgeSitesDir (one per environment). */
export function edgeSiteFileName(environmentId: string): string {
  if (!containerNamePattern.test(environmentId)) throw new Error('edge site file: not a safe name');
  return `${environmentId}.conf`;
}
