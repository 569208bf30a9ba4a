import { z } from 'zod';
import { operationKind } from '../operations/operation-kind.ts';
import { environmentInput } from '../sites/sites.operations.ts';

/**
 * The operations on backups (workers/backups/ carries them out). Every step is idempotent: a
 * retried or taken-over job runs it again safely.
 */

/** A backup stuck past this fails (the runner's deadline), never stays running. */
const BACKUP_DEADLINE_SECONDS = 60 * 60;

/** Every backup operation names the backup it makes or acts on. */
export const backupInput = environmentInput.extend({ backup_id: z.uuid() });
export type BackupInput = z.infer<typeof backupInput>;

export const backupCreate = operationKind({
  kind: 'backup.create',
  input: backupInput,
  steps: [
    { name: 'repository', cancellable: true }, // the environment's restic repository, initialised once
    { name: 'snapshot', cancellable: true }, // the database dumped and the files read into one snapshot
    { name: 'retention' }, // restic forget of what the plan no longer keeps (the prune sweep prunes later)
  ],
  deadlineSeconds: BACKUP_DEADLINE_SECONDS,
});

/**
 * A restore never leaves a half-restored site: the target is backed up first (`backup_id`, kind
 * pre_restore), the backup (`restore_backup_id`) is restored beside it (a new directory, a new
 * database) and checked, and only then swapped in (one rename of the files, one RENAME TABLE of the
 * database, with the container stopped between). `source_environment_id`: the backup is another
 * environment's, so its address is rewritten to the target's.
 */
export const backupRestore = operationKind({
  kind: 'backup.restore',
  input: backupInput.extend({ restore_backup_id: z.uuid(), source_environment_id: z.number().int().positive().optional() }),
  steps: [
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
    { name: 'purge_cache' }, // pages cached from before the restore are gone
    { name: 'cleanup' }, // the replaced files and scratch databases removed; the safety backup's retention
  ],
  deadlineSeconds: BACKUP_DEADLINE_SECONDS,
});

/**
 * A backup restored into a new site (POST .../restore with `new_site`): its production environment
 * is made empty, the backup restored beside it and checked, then swapped in; nothing to back up first.
 */
export const siteRestore = operationKind({
  kind: 'site.restore',
  input: environmentInput.extend({ restore_backup_id: z.uuid(), source_environment_id: z.number().int().positive() }),
  steps: [
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
    { name: 'purge_cache' },
    { name: 'cleanup' },
  ],
  deadlineSeconds: BACKUP_DEADLINE_SECONDS,
});

export const backupDelete = operationKind({
  kind: 'backup.delete',
  input: backupInput,
  steps: [{ name: 'forget' }], // the snapshot forgotten and the repository pruned; then the row goes
  deadlineSeconds: BACKUP_DEADLINE_SECONDS,
});

/**
 * A repository's unused data removed (restic prune): started by the prune sweep for a repository
 * with snapshots forgotten since its last prune, at most once per BACKUP_PRUNE_INTERVAL_SECONDS
 * (a backup's retention only forgets, so no backup pays for a prune). A platform operation, run
 * between the environment's other operations (they share its serial key).
 */
export const backupPrune = operationKind({
  kind: 'backup.prune',
  input: environmentInput,
  steps: [{ name: 'prune' }],
  deadlineSeconds: BACKUP_DEADLINE_SECONDS,
});

/** Kinds of operation that read a backup's snapshot to restore it: it is not deleted meanwhile. */
export const RESTORING_KINDS = [backupRestore.kind, siteRestore.kind] as const;

export const backupOperations = [backupCreate, backupRestore, siteRestore, backupDelete, backupPrune] as const;
