import { Model } from 'objection';

// Sites, their environments, and what a team's plan lets it run.

/** What a team's plan allows, written by its subscription (or an operator); no row: no plan, so no sites (402 PAYMENT_REQUIRED). */
export class TeamEntitlements extends Model {
  static override tableName = 'team_entitlements';
  static override idColumn = 'team_id';
  declare team_id: number;
  declare plan: string;
  declare max_sites: number;
  declare max_disk_bytes: number;
  /** The memory cap of each environment's container made under this plan. */
  declare environment_memory_bytes: number;
  /** The CPU of each environment's container made under this plan, in thousandths of a core. */
  declare environment_cpu_millicores: number;
  /** Scheduled backups kept per environment (restic forget after each backup). */
  declare backups_scheduled_keep: number;
  /** Manual backups kept per environment. */
  declare backups_manual_keep: number;
  declare created_at: Date;
  declare updated_at: Date;
}

export type SiteStatus = 'creating' | 'active' | 'failed' | 'deleting';

export class Site extends Model {
  static override tableName = 'sites';
  declare id: number;
  declare team_id: number;
  declare name: string;
  declare slug: string;
  declare region: string;
  declare status: SiteStatus;
  declare created_by_user_id: number | null;
  declare cloned_from_site_id: number | null;
  declare created_at: Date;
  declare updated_at: Date;
}

export type WordpressInventory = {
  version: string;
  db_version: number;
  php_version: string;
  php: string;
  mysql_version: string;
  home: string;
  siteurl: string;
  blogname: string;
  locale: string;
  theme: string;
  plugins: Array<{ plugin: string; slug: string; name: string; version: string; active: boolean }>;
  themes: Array<{ theme: string; name: string; version: string; parent: string | null; active: boolean }>;
};

export type EnvironmentKind = 'production' | 'staging' | 'development';

export class Environment extends Model {
  static override tableName = 'environments';
  declare id: number;
  declare site_id: number;
  declare team_id: number;
  declare kind: EnvironmentKind;
  declare node_id: string;
  declare php_version: string;
  declare domain: string;
  /** A verified custom domain WordPress answers at instead of `domain` (its home and site URL); null: `domain`. */
  declare primary_domain: string | null;
  declare status: SiteStatus;
  declare db_name: string;
  declare db_user: string;
  declare db_password_sealed: string;
  declare table_prefix: string;
  declare disk_quota_bytes: number;
  /** Its container's memory cap (cgroup), from the team's plan when it was made. */
  declare memory_limit_bytes: number;
  /** Its container's CPU (thousandths of a core: a ceiling and a weight), from the team's plan when it was made. */
  declare cpu_limit_millicores: number;
  /** What WordPress it runs, as a worker last read it (the `inventory` helper command); null before. */
  declare wordpress: WordpressInventory | null;
  declare wordpress_checked_at: Date | null;
  /** The scheme WordPress's URLs use now; the edge redirects HTTP to HTTPS (with HSTS) only while it is https. */
  declare url_scheme: 'http' | 'https';
  /** The team's choice; null: the default, on once an installed certificate covers the address. */
  declare force_https: boolean | null;
  /** Strict-Transport-Security's max-age while HTTPS is forced; null: a year on production, none elsewhere. */
  declare hsts_max_age_seconds: number | null;
  /** HTTP basic auth at the edge: the user name and its SHA-512-crypt hash (both null: off). */
  declare password_protection_username: string | null;
  declare password_protection_hash: string | null;
  /** Whether the edge caches its pages (shared/wordpress/edge-cache.ts); production's default. */
  declare page_cache: boolean;
  /** Path prefixes its page cache never serves nor stores (jsonb array of strings). */
  declare cache_exclusions: string[];
  declare created_at: Date;
  declare updated_at: Date;

  static override get jsonAttributes(): string[] {
    return ['wordpress', 'cache_exclusions'];
  }
}
