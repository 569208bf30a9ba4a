import type { StepPlan } from '../operations/operations.ts';

export const SITE_CREATE_KIND = 'site.create';

/**
 * The steps of `site.create`, named here so the API plans the operation without importing the
 * workers (workers/sites/ carries them out under the same names). Every step is idempotent.
 */
export const SITE_CREATE_STEPS: readonly StepPlan[] = [
  { name: 'node_services', cancellable: true }, // the node's edge proxy and MariaDB, made on first need
  { name: 'database', cancellable: true }, // the environment's database and user
  { name: 'files', cancellable: true }, // its files directory, seeded with WordPress
  { name: 'container', cancellable: true }, // its PHP-FPM container
  { name: 'configure' }, // wp-config.php
  { name: 'install' }, // WordPress installed; the admin's one-time password link mailed
  { name: 'route' }, // the edge proxy serves the default domain
  { name: 'verify' }, // the front page answers through the edge proxy
];

export const SITE_DEADLINE_SECONDS = 20 * 60;

export const SITE_DELETE_KIND = 'site.delete';

/** The steps of `site.delete`: what site.create made, undone in reverse order of use; the rows last. */
export const SITE_DELETE_STEPS: readonly StepPlan[] = [
  { name: 'route' }, // the edge stops serving its domains
  { name: 'container' }, // its PHP-FPM container removed
  { name: 'database' }, // its database and user dropped
  { name: 'files' }, // its files and work directories removed
  { name: 'records' }, // the site and its environments deleted
];
