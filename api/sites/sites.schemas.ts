import { DEFAULT_HSTS_SECONDS } from '../../shared/domains/edge/edge-settings.ts';
import { z } from 'zod';
import type { Environment, Site, TeamEntitlements } from '../../shared/db/models.ts';
import { SITE_SLUG } from '../../shared/domains/sites/sites.ts';

export const createSiteBody = z.strictObject({
  name: z.string().trim().min(1).max(100),
  slug: z
    .string()
    .regex(SITE_SLUG, { error: 'must be 3 to 30 lower-case letters, digits or hyphens, starting and ending with a letter or digit' })
    .optional()
    .describe("Part of every environment's default domain (`production-<slug>.<base domain>`); from the name when absent. Unique platform-wide."),
  region: z.string().min(1).max(50).optional().describe('Where it runs; any region with room when absent'),
  php_version: z
    .string()
    .regex(/^\d+\.\d+$/, { error: 'must look like 8.2' })
    .describe('One of the PHP versions the platform offers (GET /v1/sites/php-versions)'),
  wordpress: z
    .strictObject({
      title: z.string().trim().min(1).max(200),
      admin_user: z.string().regex(/^[A-Za-z0-9_.@-]{1,60}$/, { error: '1 to 60 letters, digits and _ . @ -' }),
      admin_email: z.email().max(254),
      locale: z
        .string()
        .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, { error: 'a WordPress locale such as en_US' })
        .default('en_US'),
    })
    .describe("The admin's password is never stored by Berth: a one-time link to set it is e-mailed to admin_email"),
});

const timestamp = z.string().describe('ISO 8601 UTC');

export const environmentJson = z
  .object({
    id: z.number().int(),
    kind: z.enum(['production', 'staging', 'development']).describe('Also its name in paths: /v1/sites/{id}/environments/{kind}'),
    status: z.enum(['creating', 'active', 'failed', 'deleting']),
    domain: z.string().describe('Its default address: `<kind>-<slug>.<base domain>`'),
    primary_domain: z.string().nullable().describe('The custom domain WordPress answers at (PUT …/primary-domain); null: the default address'),
    url: z.string().describe('Where the site answers: its primary domain, or its default address'),
    php_version: z.string(),
    memory_limit_bytes: z.number().int().describe("Its container's memory cap, from the team's plan when it was made"),
    cpu_limit_millicores: z
      .number()
      .int()
      .describe(
        "Its container's CPU in thousandths of a core (1000 = one core): the most it may use, and its weight when the node is busy; from the team's plan when it was made",
      ),
    https: z
      .object({
        force: z.boolean().describe('HTTPS forced (the default once an installed certificate covers the address): PATCH …/https'),
        url_scheme: z.enum(['http', 'https']).describe("The scheme WordPress's URLs use now; https while HTTPS is forced and covered"),
        hsts_max_age_seconds: z
          .number()
          .int()
          .describe('Strict-Transport-Security max-age sent over HTTPS while forced (0: none); a year on production, none elsewhere by default'),
      })
      .describe('HTTPS at the edge'),
    password_protection: z
      .object({ enabled: z.boolean(), username: z.string().nullable() })
      .describe('HTTP basic auth at the edge (PUT …/password-protection); the password is never shown again'),
    wordpress: z
      .object({
        version: z.string(),
        php_version: z.string(),
        blogname: z.string(),
        plugins: z.number().int(),
        themes: z.number().int(),
        checked_at: timestamp,
      })
      .nullable()
      .describe('What it runs, as last read after an operation on it (null before its first); details at .../wordpress'),
    page_cache: z
      .object({ enabled: z.boolean(), exclusions: z.array(z.string()).describe('Path prefixes never cached') })
      .describe("The edge's page cache (PATCH …/cache; on by default for production): docs/api/edge.md"),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Environment' });

export const siteJson = z
  .object({
    id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    region: z.string(),
    status: z.enum(['creating', 'active', 'failed', 'deleting']),
    environments: z.array(environmentJson),
    cloned_from_site_id: z.number().int().nullable().describe('The site this one was cloned from'),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Site' });

export function siteView(site: Site, environments: Environment[]): z.infer<typeof siteJson> {
  return {
    id: site.id,
    name: site.name,
    slug: site.slug,
    region: site.region,
    status: site.status,
    environments: environments.filter((environment) => environment.site_id === site.id).map(environmentView),
    cloned_from_site_id: site.cloned_from_site_id,
    created_at: site.created_at.toISOString(),
    updated_at: site.updated_at.toISOString(),
  };
}

export function environmentView(environment: Environment): z.infer<typeof environmentJson> {
  const wordpress = environment.wordpress;
  return {
    id: environment.id,
    kind: environment.kind,
    status: environment.status,
    domain: environment.domain,
    primary_domain: environment.primary_domain ?? null,
    url: `${environment.url_scheme}://${environment.primary_domain ?? environment.domain}/`,
    php_version: environment.php_version,
    memory_limit_bytes: Number(environment.memory_limit_bytes),
    cpu_limit_millicores: environment.cpu_limit_millicores,
    https: {
      force: environment.force_https ?? true,
      url_scheme: environment.url_scheme,
      hsts_max_age_seconds: environment.hsts_max_age_seconds ?? DEFAULT_HSTS_SECONDS[environment.kind],
    },
    password_protection: { enabled: environment.password_protection_hash !== null, username: environment.password_protection_username },
    wordpress:
      wordpress && environment.wordpress_checked_at
        ? {
            version: wordpress.version,
            php_version: wordpress.php_version,
            blogname: wordpress.blogname,
            plugins: wordpress.plugins.length,
            themes: wordpress.themes.length,
            checked_at: environment.wordpress_checked_at.toISOString(),
          }
        : null,
    page_cache: { enabled: environment.page_cache, exclusions: environment.cache_exclusions },
    created_at: environment.created_at.toISOString(),
    updated_at: environment.updated_at.toISOString(),
  };
}

export const updateSiteBody = z.strictObject({
  name: z.string().trim().min(1).max(100),
});

export const cloneSiteBody = z.strictObject({
  name: z.string().trim().min(1).max(100),
  slug: createSiteBody.shape.slug,
  source: z.enum(['production', 'staging', 'development']).default('production').describe('The environment of this site to copy'),
});

export const phpVersionsJson = z.object({ versions: z.array(z.string()), default: z.string() }).meta({ id: 'PhpVersions' });

const ENVIRONMENT_MEMORY_DEFAULT = 512 * 1024 ** 2;
const ENVIRONMENT_CPU_DEFAULT = 1000;

export const entitlementsBody = z.strictObject({
  plan: z.string().trim().min(1).max(50),
  max_sites: z.number().int().min(0).max(100_000),
  max_disk_bytes: z.number().int().min(0),
  environment_memory_bytes: z
    .number()
    .int()
    .min(128 * 1024 ** 2)
    .max(64 * 1024 ** 3)
    .default(ENVIRONMENT_MEMORY_DEFAULT)
    .describe("The memory cap of each environment's container made from now on (default 512 MiB); existing ones keep theirs"),
  environment_cpu_millicores: z
    .number()
    .int()
    .min(100)
    .max(64_000)
    .default(ENVIRONMENT_CPU_DEFAULT)
    .describe(
      "The CPU of each environment's container made from now on, in thousandths of a core (default 1000 = one core): a ceiling, and its weight against the node's other sites when the node is busy; existing ones keep theirs",
    ),
  backups_scheduled_keep: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(14)
    .describe('Scheduled backups kept per environment (older ones expire after each backup)'),
  backups_manual_keep: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(10)
    .describe('Manual backups kept per environment, and as many of each automatic kind (before a restore, before a push)'),
});

export const entitlementsJson = entitlementsBody
  .extend({
    environment_memory_bytes: z.number().int(),
    environment_cpu_millicores: z.number().int(),
    backups_scheduled_keep: z.number().int(),
    backups_manual_keep: z.number().int(),
    team_id: z.number().int(),
    updated_at: timestamp,
  })
  .meta({ id: 'Entitlements' });

export function entitlementsView(row: TeamEntitlements): z.infer<typeof entitlementsJson> {
  return {
    team_id: row.team_id,
    plan: row.plan,
    max_sites: row.max_sites,
    max_disk_bytes: Number(row.max_disk_bytes),
    environment_memory_bytes: Number(row.environment_memory_bytes),
    environment_cpu_millicores: row.environment_cpu_millicores,
    backups_scheduled_keep: row.backups_scheduled_keep,
    backups_manual_keep: row.backups_manual_keep,
    updated_at: row.updated_at.toISOString(),
  };
}
