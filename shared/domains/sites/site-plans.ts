import type { StepPlan } from '../operations/operations.ts';

/**
 * The operations on sites and their environments, with their steps, named here so the API plans an
 * operation without importing the workers (workers/sites/ carries them out under the same names).
 * Every step is idempotent: a retried or taken-over job runs it again safely.
 */

export const SITE_DEADLINE_SECONDS = 20 * 60;

export const SITE_CREATE_KIND = 'site.create';

export const SITE_CREATE_STEPS: readonly StepPlan[] = [
  { name: 'node_services', cancellable: true }, // the node's edge proxy and MariaDB, made on first need
  { name: 'database', cancellable: true }, // the environment's database and user
  { name: 'files', cancellable: true }, // its files directory, seeded with WordPress
  { name: 'container', cancellable: true }, // its PHP-FPM container
  { name: 'configure' }, // wp-config.php
  { name: 'install' }, // WordPress installed; the admin's one-time password link mailed
  { name: 'route' }, // the edge proxy serves the default domain
  { name: 'inventory' }, // what WordPress runs (core, PHP, plugins, themes) recorded
  { name: 'verify' }, // the front page answers through the edge proxy
];

/** A staging or development environment made from another environment of the site. */
export const ENVIRONMENT_CREATE_KIND = 'environment.create';
/** A new site made from an environment of another site. */
export const SITE_CLONE_KIND = 'site.clone';

/** The steps of both copies: a new environment, then the source's files and database, its URLs rewritten. */
export const ENVIRONMENT_COPY_STEPS: readonly StepPlan[] = [
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
];

/** One environment's files and/or database copied onto another of the same site. */
export const ENVIRONMENT_PUSH_KIND = 'environment.push';

export const ENVIRONMENT_PUSH_STEPS: readonly StepPlan[] = [
  { name: 'safety_repository', cancellable: true }, // a push to production backs production up first (kind pre_push); skipped otherwise
  { name: 'safety_snapshot', cancellable: true },
  { name: 'copy_files', cancellable: true }, // skipped when files are not pushed
  { name: 'copy_database' }, // skipped when the database is not pushed
  { name: 'rewrite_urls' },
  { name: 'inventory' },
  { name: 'verify' },
  { name: 'safety_retention' }, // the plan's retention of pre-push backups
];

export const ENVIRONMENT_PHP_KIND = 'environment.php_change';

/** The container recreated from the other PHP version's image; files and database untouched. */
export const ENVIRONMENT_PHP_STEPS: readonly StepPlan[] = [
  { name: 'container' },
  { name: 'inventory' },
  { name: 'verify' },
];

export const ENVIRONMENT_RESTART_KIND = 'environment.restart';

export const ENVIRONMENT_RESTART_STEPS: readonly StepPlan[] = [
  { name: 'restart' },
  { name: 'verify' },
];

export const SITE_DELETE_KIND = 'site.delete';
export const ENVIRONMENT_DELETE_KIND = 'environment.delete';

/** What a creation made, undone in reverse order of use; the rows last (site.delete and environment.delete). */
export const ENVIRONMENT_REMOVAL_STEPS: readonly StepPlan[] = [
  { name: 'route' }, // the edge stops serving its domains
  { name: 'container' }, // its PHP-FPM container removed
  { name: 'database' }, // its database and user dropped
  { name: 'backups' }, // its snapshots forgotten from the node's repository (its backups' rows go with the records)
  { name: 'files' }, // its files and work directories removed
  { name: 'records' }, // the rows deleted
];
export const SITE_DELETE_STEPS = ENVIRONMENT_REMOVAL_STEPS;

/** What a node's agent hosts, made to match the control plane's records when the agent starts. */
export const NODE_RECONCILE_KIND = 'node.reconcile';

export const NODE_RECONCILE_STEPS: readonly StepPlan[] = [
  { name: 'node_services' }, // network, edge proxy and MariaDB present and running
  { name: 'environments' }, // each live environment's container and edge route present
  { name: 'sftp_users' }, // the node's SFTP users as the records say: lost ones back, revoked ones gone
];
