import type { StepPlan } from '../operations/operations.ts';

/**
 * The operations on backups, with their steps, named here so the API and the scheduler plan them
 * without importing the workers (workers/backups/ carries them out under the same names). Every
 * step is idempotent: a retried or taken-over job runs it again safely.
 */

/** A backup stuck past this fails (the runner's deadline), never stays running. */
export const BACKUP_DEADLINE_SECONDS = 60 * 60;

export const BACKUP_CREATE_KIND = 'backup.create';

export const BACKUP_CREATE_STEPS: readonly StepPlan[] = [
  { name: 'repository', cancellable: true }, // the node's restic repository, initialised once
  { name: 'snapshot', cancellable: true }, // the database dumped and the files read into one snapshot
  { name: 'retention' }, // restic forget --prune of what the plan no longer keeps
];

export const BACKUP_RESTORE_KIND = 'backup.restore';

/**
 * A restore never leaves a half-restored site: the target is backed up first, the backup is
 * restored beside it (a new directory, a new database) and checked, and only then swapped in (one
 * rename of the files, one RENAME TABLE of the database, with the container stopped between).
 */
export const BACKUP_RESTORE_STEPS: readonly StepPlan[] = [
  { name: 'safety_repository', cancellable: true }, // the target's own backup first (kind pre_restore)
  { name: 'safety_snapshot', cancellable: true },
  { name: 'restore_files', cancellable: true }, // the backup's files into a new directory beside the target's
  { name: 'restore_database', cancellable: true }, // its dump into a new database beside the target's
  { name: 'verify_restore', cancellable: true }, // WordPress's files and tables are there, before anything is swapped
  { name: 'swap' }, // container stopped, files and tables swapped, container started
  { name: 'configure' }, // the target's own wp-config.php (its database, its address)
  { name: 'rewrite_urls' }, // a backup of another environment: its address replaced by the target's
  { name: 'inventory' },
  { name: 'verify' },
  { name: 'cleanup' }, // the replaced files and scratch databases removed; the safety backup's retention
];

/** A backup restored into a new site (POST .../restore with `new_site`). */
export const SITE_RESTORE_KIND = 'site.restore';

/**
 * The new site's production environment is made empty, the backup restored beside it and checked,
 * then swapped in, like a restore onto an existing environment; nothing to back up first.
 */
export const SITE_RESTORE_STEPS: readonly StepPlan[] = [
  { name: 'node_services', cancellable: true },
  { name: 'database', cancellable: true },
  { name: 'files', cancellable: true },
  { name: 'restore_files', cancellable: true },
  { name: 'restore_database', cancellable: true },
  { name: 'verify_restore', cancellable: true },
  { name: 'container', cancellable: true },
  { name: 'swap' },
  { name: 'configure' }, // the new site's own wp-config.php (its database, its address)
  { name: 'rewrite_urls' }, // the backed-up environment's address replaced by the new site's
  { name: 'route' },
  { name: 'inventory' },
  { name: 'verify' }, // the front page answers: the site is active
  { name: 'cleanup' },
];

/** Kinds of operation that read a backup's snapshot to restore it: it is not deleted meanwhile. */
export const RESTORING_KINDS = [BACKUP_RESTORE_KIND, SITE_RESTORE_KIND] as const;

export const BACKUP_DELETE_KIND = 'backup.delete';

export const BACKUP_DELETE_STEPS: readonly StepPlan[] = [
  { name: 'forget' }, // the snapshot forgotten and the repository pruned; then the row goes
];
