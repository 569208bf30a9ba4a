import { z } from 'zod';
import { operationKind } from '../operations/operation-kind.ts';

/**
 * The operations on sites and their environments (workers/sites/ and workers/environments/ carry
 * them out). Every step is idempotent: a retried or taken-over job runs it again safely.
 */

const SITE_DEADLINE_SECONDS = 20 * 60;
/** How long operations on an environment's site may take; shared by the domains that change an environment. */
export const ENVIRONMENT_DEADLINE_SECONDS = SITE_DEADLINE_SECONDS;

const id = z.number().int().positive();

/** What every operation on one environment names: the environment and its site. */
export const environmentInput = z.object({ site_id: id, environment_id: id });
export type EnvironmentInput = z.infer<typeof environmentInput>;

export const siteCreate = operationKind({
  kind: 'site.create',
  input: z.object({ environment_id: id, title: z.string(), admin_user: z.string(), admin_email: z.string(), locale: z.string() }),
  steps: [
    { name: 'node_services', cancellable: true }, // the node's edge proxy and MariaDB, made on first need (not waited for: database does)
    { name: 'files', cancellable: true }, // its files directory: a WordPress tree copied ahead, when the node's pool has one
    { name: 'container', cancellable: true }, // its PHP-FPM container, which copies WordPress into files without it (while a new node's MariaDB initialises)
    { name: 'database', cancellable: true }, // the environment's database and user, once MariaDB answers
    { name: 'configure' }, // wp-config.php
    { name: 'install' }, // WordPress installed; the admin's one-time password link mailed
    { name: 'route' }, // the edge proxy serves the default domain
    { name: 'inventory' }, // what WordPress runs (core, PHP, plugins, themes) recorded, as the install read it
    { name: 'verify' }, // the front page answers through the edge proxy
    { name: 'pool' }, // WordPress copied ahead for the node's next site (SITE_WORDPRESS_POOL_SIZE; never fails the site)
  ],
  deadlineSeconds: SITE_DEADLINE_SECONDS,
});

/** The steps of both copies: a new environment, then the source's files and database, its URLs rewritten. */
const COPY_STEPS = [
  { name: 'node_services', cancellable: true },
  { name: 'database', cancellable: true },
  { name: 'files', cancellable: true },
  { name: 'copy_files', cancellable: true }, // the source's files, without its wp-config.php
  { name: 'container', cancellable: true },
  { name: 'configure' }, // its own wp-config.php: its database, its address
  { name: 'copy_database' }, // the source's database dumped into its own
  { name: 'rewrite_urls' }, // the source's address replaced by its own, serialized data kept valid
  { name: 'route' },
  { name: 'inventory' },
  { name: 'verify' },
  { name: 'purge_cache' }, // the edge's cached pages of the environment removed (an id used before may have left some)
] as const;

/** A staging or development environment made from another environment of the site. */
export const environmentCreate = operationKind({
  kind: 'environment.create',
  input: environmentInput.extend({ source_environment_id: id }),
  steps: COPY_STEPS,
  deadlineSeconds: SITE_DEADLINE_SECONDS,
});

/** A new site made from an environment of another site. */
export const siteClone = operationKind({
  kind: 'site.clone',
  input: z.object({ environment_id: id, source_environment_id: id, source_site_id: id }),
  steps: COPY_STEPS,
  deadlineSeconds: SITE_DEADLINE_SECONDS,
});

/** One environment's files and/or database copied onto another of the same site. */
export const environmentPush = operationKind({
  kind: 'environment.push',
  input: environmentInput.extend({
    source_environment_id: id,
    files: z.boolean(),
    database: z.boolean(),
    /** A push to production backs production up first (kind pre_push): that backup's id. */
    backup_id: z.uuid().optional(),
  }),
  steps: [
    { name: 'safety_repository', cancellable: true }, // a push to production backs production up first (kind pre_push); skipped otherwise
    { name: 'safety_snapshot', cancellable: true },
    { name: 'copy_files', cancellable: true }, // skipped when files are not pushed
    { name: 'copy_database' }, // skipped when the database is not pushed
    { name: 'rewrite_urls' },
    { name: 'inventory' },
    { name: 'verify' },
    { name: 'purge_cache' }, // pages cached before the push are gone
    { name: 'safety_retention' }, // the plan's retention of pre-push backups
  ],
  deadlineSeconds: SITE_DEADLINE_SECONDS,
});

/** The container recreated from the other PHP version's image; files and database untouched. */
export const environmentPhpChange = operationKind({
  kind: 'environment.php_change',
  input: environmentInput.extend({ php_version: z.string(), previous_php_version: z.string() }),
  steps: [{ name: 'container' }, { name: 'inventory' }, { name: 'verify' }, { name: 'purge_cache' }],
  deadlineSeconds: SITE_DEADLINE_SECONDS,
});

export const environmentRestart = operationKind({
  kind: 'environment.restart',
  input: environmentInput,
  steps: [{ name: 'restart' }, { name: 'verify' }],
  deadlineSeconds: SITE_DEADLINE_SECONDS,
});

/** What a creation made, undone in reverse order of use; the rows last. */
const REMOVAL_STEPS = [
  { name: 'route' }, // the edge stops serving its domains
  { name: 'container' }, // its PHP-FPM container removed
  { name: 'database' }, // its database and user dropped
  { name: 'backups' }, // its snapshots and repository forgotten (its backups' rows go with the records)
  { name: 'files' }, // its files and work directories removed
  { name: 'records' }, // the rows deleted
] as const;

export const siteDelete = operationKind({
  kind: 'site.delete',
  input: z.object({ site_id: id, environment_ids: z.array(id) }),
  steps: REMOVAL_STEPS,
  deadlineSeconds: SITE_DEADLINE_SECONDS,
});

export const environmentDelete = operationKind({
  kind: 'environment.delete',
  input: environmentInput.extend({ environment_ids: z.array(id) }),
  steps: REMOVAL_STEPS,
  deadlineSeconds: SITE_DEADLINE_SECONDS,
});

export const siteOperations = [
  siteCreate,
  siteClone,
  siteDelete,
  environmentCreate,
  environmentPush,
  environmentPhpChange,
  environmentRestart,
  environmentDelete,
] as const;
