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
  /** The environment's key (`env-<id>`): names the configuration's own variables, so no two sites' files clash. */
  key: string;
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
  /**
   * HTTPS on 443 too, with this certificate chain and key (paths as the edge sees them). `names`: the
   * names the certificate covers; an alias among them answers over TLS as well (with its redirect).
   */
  tls?: { certificate: string; key: string; names: string[] };
  /** HTTP answered with 301 to https://<primary> (ACME challenges excepted); needs `tls`. */
  forceHttps?: boolean;
  /** Strict-Transport-Security's max-age on HTTPS answers while HTTPS is forced; 0 or absent: no header. */
  hstsMaxAgeSeconds?: number;
  /** HTTP basic auth in front of the site (ACME challenges excepted): the htpasswd file as the edge sees it. */
  basicAuth?: { userFile: string };
  /**
   * The platform's own probes (verify steps) send `X-Berth-Probe: <token>`: they pass basic auth. A
   * per-environment secret (hex), so a visitor who learns one site's token opens no other.
   */
  probeToken?: string;
  /** Its page cache (edge-cache.ts), named after `key`; absent: pages are not cached and no X-Cache header is sent. */
  cache?: Pick<EdgePageCache, 'exclusions'>;
  /** Its own access log (nginx.conf's `berth_json`, a JSON object a line) and error log, as the edge sees them; absent: the edge's stdout and stderr. */
  logs?: { access: string; error: string };
}

const hostPattern = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const containerNamePattern = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,127}$/;
const keyPattern = /^[a-z0-9-]{1,64}$/;
// no whitespace, quotes, braces, semicolons, $ or backslashes: nothing that could end a directive
const pathPattern = /^\/[A-Za-z0-9._/-]*$/;
/** Two years: the longest max-age browsers' preload lists ask for. */
export const HSTS_MAX_AGE_LIMIT_SECONDS = 63_072_000;

/** Rejects what could break out of a directive; a site's config must never be able to affect another's. */
export function validateEdgeSite(site: EdgeSite): string[] {
  const problems: string[] = [];
  if (!keyPattern.test(site.key)) problems.push('key: lower-case letters, digits and -');
  if (site.hosts.length === 0) problems.push('hosts: at least one host name');
  for (const host of [...site.hosts, ...(site.redirectHosts ?? []), ...(site.tls?.names ?? [])]) {
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
    ['basicAuth.userFile', site.basicAuth?.userFile],
    ['logs.access', site.logs?.access],
    ['logs.error', site.logs?.error],
  ] as const) {
    if (path !== undefined && (!pathPattern.test(path) || path.split('/').includes('..')))
      problems.push(`${field}: not an absolute path of letters, digits and . _ - /`);
  }
  const upload = site.maxUploadMegabytes ?? 64;
  if (!Number.isInteger(upload) || upload < 1 || upload > 10_240) problems.push('maxUploadMegabytes: 1 to 10240');
  if (site.forceHttps && !site.tls) problems.push('forceHttps: needs tls');
  const hsts = site.hstsMaxAgeSeconds ?? 0;
  if (!Number.isInteger(hsts) || hsts < 0 || hsts > HSTS_MAX_AGE_LIMIT_SECONDS) problems.push(`hstsMaxAgeSeconds: 0 to ${HSTS_MAX_AGE_LIMIT_SECONDS}`);
  if (site.probeToken !== undefined && !/^[a-f0-9]{16,128}$/.test(site.probeToken)) problems.push('probeToken: 16 to 128 hex digits');
  return problems;
}

/** Whether a certificate for `names` covers `host` (a wildcard covers exactly one label more). */
export function certificateCovers(names: readonly string[], host: string): boolean {
  return names.some((name) => name === host || (name.startsWith('*.') && host.endsWith(name.slice(1)) && !host.slice(0, -(name.length - 1)).includes('.')));
}

export function renderEdgeSite(site: EdgeSite): string {
  const problems = validateEdgeSite(site);
  if (problems.length > 0) throw new Error(`edge site config: ${problems.join('; ')}`);
  const primary = site.hosts[0]!;
  const forced = Boolean(site.forceHttps && site.tls);
  return [
    `# Berth edge site: ${primary} (rendered by shared/wordpress/edge-site.ts; rewritten by the agent)`,
    ...pageCache(site).http,
    ...authRealmMap(site),
    ...(forced
      ? [
          // plain HTTP only answers ACME challenges and sends everything else to HTTPS
          'server {',
          ...listen(80),
          `    server_name ${site.hosts.join(' ')};`,
          ...acmeLocation(site),
          `    location / { return 301 https://${primary}$request_uri; }`,
          '}',
          '',
          'server {',
          ...listen(443, site.tls),
          ...hsts(site),
        ]
      : ['server {', ...listen(80), ...(site.tls ? listen(443, site.tls) : [])]),
    ...siteBody(site),
    '}',
    '',
    ...redirectServers(site),
  ].join('\n');
}

function listen(port: 80 | 443, tls?: EdgeSite['tls']): string[] {
  if (port === 80) return ['    listen 80;', '    listen [::]:80;'];
  return [
    '    listen 443 ssl;',
    '    listen [::]:443 ssl;',
    `    ssl_certificate ${tls!.certificate};`,
    `    ssl_certificate_key ${tls!.key};`,
    '    ssl_protocols TLSv1.2 TLSv1.3;',
  ];
}

function hsts(site: EdgeSite): string[] {
  const maxAge = site.hstsMaxAgeSeconds ?? 0;
  // `always`: on error pages too. A location with add_header of its own must repeat it (nginx inherits none then).
  return maxAge > 0 ? [`    add_header Strict-Transport-Security "max-age=${maxAge}" always;`] : [];
}

function acmeLocation(site: EdgeSite): string[] {
  if (!site.acmeChallengeRoot) return [];
  return [
    '    location ^~ /.well-known/acme-challenge/ {',
    `        root ${site.acmeChallengeRoot};`,
    '        default_type text/plain;',
    // the CA has no password: challenges are answered whatever protects the site
    '        auth_basic off;',
    '        try_files $uri =404;',
    '    }',
  ];
}

/** The variable basic auth reads its realm from: "off" for the platform's own probes, which carry the environment's token. */
function realmVariable(site: EdgeSite): string {
  return `$berth_realm_${site.key.replace(/-/g, '_')}`;
}

function authRealmMap(site: EdgeSite): string[] {
  if (!site.basicAuth) return [];
  return [
    `map $http_x_berth_probe ${realmVariable(site)} {`,
    '    default "Protected site";',
    ...(site.probeToken ? [`    "${site.probeToken}" off;`] : []),
    '}',
    '',
  ];
}

/** The site's page cache directives (none when it has no cache). */
function pageCache(site: EdgeSite): ReturnType<typeof renderPageCache> {
  return site.cache ? renderPageCache({ key: site.key, exclusions: site.cache.exclusions }) : { http: [], server: [], location: [] };
}

/** What every listener of the site serves: WordPress's rules, PHP over FastCGI, static files. */
function siteBody(site: EdgeSite): string[] {
  const docroot = site.docroot ?? WORDPRESS_RUNTIME.docroot;
  const cache = pageCache(site);
  return [
    `    server_name ${site.hosts.join(' ')};`,
    `    root ${site.filesRoot};`,
    '    index index.php index.html;',
    `    client_max_body_size ${site.maxUploadMegabytes ?? 64}m;`,
    "    # the edge sees every site's files and they all belong to www-data, so `if_not_owner` would",
    '    # let a link into another site through: no symbolic link at all below the root is followed',
    '    # (checked component by component with O_NOFOLLOW when opened, so it cannot be raced)',
    '    disable_symlinks on from=$document_root;',
    ...(site.basicAuth ? [`    auth_basic ${realmVariable(site)};`, `    auth_basic_user_file ${site.basicAuth.userFile};`] : []),
    ...(site.logs ? [`    access_log ${site.logs.access} berth_json;`, `    error_log ${site.logs.error} warn;`] : []),
    '',
    ...cache.server,
    ...acmeLocation(site),
    '',
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
  ];
}

/**
 * The site's other names, each sent on to the primary (301; an ACME challenge is still answered
 * there). Those the certificate covers answer on 443 too, so `https://alias/` reaches the primary
 * instead of failing the handshake.
 */
function redirectServers(site: EdgeSite): string[] {
  const aliases = site.redirectHosts ?? [];
  if (aliases.length === 0) return [];
  const primary = site.hosts[0]!;
  const names = site.tls?.names ?? [];
  const covered = aliases.filter((alias) => certificateCovers(names, alias));
  const uncovered = aliases.filter((alias) => !covered.includes(alias));
  const forced = Boolean(site.forceHttps && site.tls);
  // over TLS an alias keeps the visitor on https when the primary has it too
  const tlsTarget = forced ? 'https' : certificateCovers(names, primary) ? '$scheme' : 'http';
  const block = (hosts: string[], tls: boolean): string[] => [
    'server {',
    ...listen(80),
    ...(tls ? [...listen(443, site.tls), ...(forced ? hsts(site) : [])] : []),
    `    server_name ${hosts.join(' ')};`,
    ...acmeLocation(site),
    `    location / { return 301 ${tls ? tlsTarget : forced ? 'https' : 'http'}://${primary}$request_uri; }`,
    '}',
    '',
  ];
  return [...(covered.length > 0 ? block(covered, true) : []), ...(uncovered.length > 0 ? block(uncovered, false) : [])];
}

/** The file name of a site's config in WORDPRESS_RUNTIME.edgeSitesDir (one per environment). */
export function edgeSiteFileName(environmentId: string): string {
  if (!containerNamePattern.test(environmentId)) throw new Error('edge site file: not a safe name');
  return `${environmentId}.conf`;
}
