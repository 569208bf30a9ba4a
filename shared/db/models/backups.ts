import { Model } from 'objection';

// Backups, their schedules and the restic repositories they live in.

export type BackupKind = 'manual' | 'scheduled' | 'pre_restore' | 'pre_push';

export type BackupStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'expired';

/** One restic snapshot of an environment's files and database dump (shared/domains/backups). */
export class Backup extends Model {
  static override tableName = 'backups';
  declare id: string;
  declare team_id: number;
  declare site_id: number;
  declare environment_id: number;
  declare node_id: string;
  declare kind: BackupKind;
  /** The host WordPress answered at when the snapshot was taken (its URLs in the dump); null before then. */
  declare host: string | null;
  declare status: BackupStatus;
  declare note: string | null;
  declare operation_id: string | null;
  declare schedule_id: number | null;
  declare slot_at: Date | null;
  declare snapshot_id: string | null;
  /** Where the snapshot is: the environment's own repository, or (taken before issue 19, not yet moved) the node's. */
  declare repository: 'environment' | 'node';
  declare size_bytes: number | null;
  declare added_bytes: number | null;
  declare file_count: number | null;
  declare database_bytes: number | null;
  declare error: string | null;
  declare created_by_user_id: number | null;
  declare created_at: Date;
  declare finished_at: Date | null;
}

/** When an environment is backed up automatically: a 5-field cron in an IANA time zone. */
export class BackupSchedule extends Model {
  static override tableName = 'backup_schedules';
  declare id: number;
  declare team_id: number;
  declare environment_id: number;
  declare cron: string;
  declare timezone: string;
  declare enabled: boolean;
  declare next_run_at: Date;
  declare last_slot_at: Date | null;
  declare created_at: Date;
  declare updated_at: Date;
}

/**
 * A node's one restic repository of before issue 19 (every environment's snapshots under one
 * password): read until each environment's next backup has moved its snapshots out, then removed.
 */
export class BackupRepository extends Model {
  static override tableName = 'backup_repositories';
  static override idColumn = 'node_id';
  declare node_id: string;
  declare password_sealed: string;
  declare initialized_at: Date | null;
  declare created_at: Date;
}

/** An environment's own restic repository: its password, sealed, and whether `restic init` ran there. */
export class EnvironmentBackupRepository extends Model {
  static override tableName = 'environment_backup_repositories';
  static override idColumn = 'environment_id';
  declare environment_id: number;
  declare node_id: string;
  declare password_sealed: string;
  declare initialized_at: Date | null;
  /** The first forget since the last prune (null: nothing left to prune); the maintenance sweep prunes it. */
  declare forgotten_at: Date | null;
  declare pruned_at: Date | null;
  /** A node-local repository's key replaced by one that opens at once (restic-quick-key.ts). */
  declare quick_key_at: Date | null;
  declare created_at: Date;
}
