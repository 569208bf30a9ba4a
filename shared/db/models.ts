import { Model } from 'objection';
import type { OperationKind } from '../domains/operations/operation-kinds.ts';

/**
 * Plain data models: no hooks, no side effects. Queries pass the knex instance or transaction
 * explicitly (`User.query(trx)`), so nothing depends on a global connection.
 */
export class User extends Model {
  static override tableName = 'users';
  declare id: number;
  declare email: string;
  declare name: string;
  declare password_hash: string;
  declare email_verified_at: Date | null;
  declare password_changed_at: Date;
  declare created_at: Date;
  declare updated_at: Date;
  declare totp_secret_sealed: string | null;
  declare totp_pending_secret_sealed: string | null;
  declare totp_enabled_at: Date | null;
  declare totp_last_used_step: number | null;
  declare failed_auth_count: number;
  declare locked_until: Date | null;
  /** `operator`: staff who run the fleet (nodes), above every team; null for customers. */
  declare platform_role: 'operator' | null;
}

/** Security settings of a team; absent keys take their defaults. */
export type TeamSettings = {
  /** New devices must be approved with an e-mailed code (default true). */
  new_device_approval?: boolean;
  /** A second live session on another device waits for approval (`approve`, default) or not (`allow`). */
  concurrent_sessions?: 'allow' | 'approve';
};

export class Team extends Model {
  static override tableName = 'teams';
  declare id: number;
  declare name: string;
  declare slug: string;
  declare settings: TeamSettings;
  declare created_at: Date;
  declare updated_at: Date;
}

export class Role extends Model {
  static override tableName = 'roles';
  declare id: number;
  declare team_id: number | null;
  declare name: string;
  declare permissions: string[];
  declare description: string;
}

export type MembershipStatus = 'ACTIVE' | 'SUSPENDED';

export class Membership extends Model {
  static override tableName = 'memberships';
  declare id: number;
  declare team_id: number;
  declare user_id: number;
  declare role_id: number;
  declare status: MembershipStatus;
}

export class Invite extends Model {
  static override tableName = 'invites';
  declare id: number;
  declare team_id: number;
  declare role_id: number;
  declare email: string;
  declare token_hash: string | null;
  declare invited_by_user_id: number | null;
  declare expires_at: Date;
  declare accepted_at: Date | null;
  declare accepted_user_id: number | null;
  declare revoked_at: Date | null;
  declare created_at: Date;
}

export class Session extends Model {
  static override tableName = 'sessions';
  declare id: string;
  declare user_id: number;
  declare team_id: number;
  declare pre_auth_token_id: number | null;
  declare remember_me: boolean;
  declare ip: string | null;
  declare user_agent: string | null;
  declare device_fingerprint: string | null;
  declare client_info: Record<string, unknown>;
  declare created_at: Date;
  declare last_seen_at: Date;
  declare revoked_at: Date | null;
  declare revoked_reason: string | null;
  declare second_factor_pending: boolean;
}

export class ApiToken extends Model {
  static override tableName = 'api_tokens';
  declare id: number;
  declare team_id: number;
  declare membership_id: number;
  declare created_by_user_id: number;
  declare name: string;
  declare prefix: string;
  declare token_hash: string;
  declare permissions: string[];
  declare expires_at: Date | null;
  declare last_used_at: Date | null;
  declare last_used_ip: string | null;
  declare revoked_at: Date | null;
  declare created_at: Date;
}

export type OperationStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** Why an operation failed: the step, a message a user can act on, and what the command printed. */
export type OperationError = { step: string | null; message: string; exit_code?: number | null; stderr_tail?: string | null };

export class Operation extends Model {
  static override tableName = 'operations';
  declare id: string;
  declare team_id: number | null;
  /** One of the catalogue's kinds (shared/domains/operations/operation-kinds.ts). */
  declare kind: OperationKind;
  declare target_type: string;
  declare target_id: string;
  declare status: OperationStatus;
  declare progress: number;
  declare input: Record<string, unknown>;
  declare result: unknown;
  declare error: OperationError | null;
  declare serial_keys: string[];
  declare created_by_user_id: number | null;
  declare attempts: number;
  declare deadline_seconds: number;
  declare deadline_at: Date | null;
  declare cancel_requested_at: Date | null;
  declare created_at: Date;
  declare started_at: Date | null;
  declare finished_at: Date | null;
  declare updated_at: Date;
}

export type StepStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export class OperationStep extends Model {
  static override tableName = 'operation_steps';
  static override idColumn = ['operation_id', 'position'];
  declare operation_id: string;
  declare position: number;
  declare name: string;
  declare status: StepStatus;
  declare cancellable: boolean;
  declare attempts: number;
  declare result: unknown;
  declare started_at: Date | null;
  declare finished_at: Date | null;
}

/** `offline` is not stored: a node is offline when its last heartbeat is older than three intervals. */
export type NodeStatus = 'enrolling' | 'online' | 'draining' | 'disabled' | 'failed';

export class Node extends Model {
  static override tableName = 'nodes';
  declare id: string;
  declare name: string;
  declare region: string;
  declare public_address: string;
  declare ssh_host: string;
  declare ssh_port: number;
  declare ssh_user: string;
  declare ssh_credentials_sealed: string | null;
  declare ssh_host_key_sha256: string | null;
  declare status: NodeStatus;
  declare enrollment_token_hash: string | null;
  declare enrollment_expires_at: Date | null;
  declare public_key: { kty: 'OKP'; crv: 'Ed25519'; x: string } | null;
  declare agent_version: string | null;
  declare protocol_version: number | null;
  declare facts: Record<string, unknown> | null;
  declare metrics: Record<string, unknown> | null;
  declare capacity: { max_sites?: number; disk_bytes?: number };
  declare last_heartbeat_at: Date | null;
  /** When the agent now running started (its heartbeats say): a new value means a restarted agent. */
  declare agent_started_at: Date | null;
  declare edge_http_port: number;
  /** The host port the edge serves HTTPS on; null: no HTTPS on this node. */
  declare edge_https_port: number | null;
  /** The port its agent's SFTP server listens on, as the agent last reported it; null before. */
  declare sftp_port: number | null;
  /** The SFTP server's host key (an OpenSSH public key line) and its SHA256 fingerprint, as reported. */
  declare sftp_host_key: string | null;
  declare sftp_host_key_fingerprint: string | null;
  declare enrolled_at: Date | null;
  declare disabled_at: Date | null;
  declare created_by_user_id: number | null;
  declare created_at: Date;
  declare updated_at: Date;
}

export type AgentCommandStatus = 'pending' | 'delivered' | 'succeeded' | 'failed';

export class AgentCommandRow extends Model {
  static override tableName = 'agent_commands';
  declare id: string;
  declare node_id: string;
  declare operation_id: string | null;
  declare kind: string;
  declare payload: unknown;
  declare status: AgentCommandStatus;
  declare deliveries: number;
  declare lease_until: Date | null;
  declare deadline_at: Date;
  declare result: unknown;
  declare error: { message: string; exit_code: number | null; stderr_tail: string | null; permanent: boolean } | null;
  declare created_at: Date;
  declare delivered_at: Date | null;
  declare finished_at: Date | null;
}

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
  declare created_at: Date;
  declare updated_at: Date;
}

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

/** An environment's TLS certificate, served by its node's edge; the key sealed with SECRET_KEY. */
export class Certificate extends Model {
  static override tableName = 'certificates';
  declare id: string;
  declare team_id: number;
  declare environment_id: number;
  declare names: string[];
  declare source: 'uploaded' | 'acme';
  declare status: 'pending' | 'installed' | 'failed';
  declare certificate_pem: string;
  declare key_sealed: string;
  declare issuer: string;
  declare fingerprint_sha256: string;
  declare not_before: Date;
  declare not_after: Date;
  declare created_at: Date;
  declare updated_at: Date;
}

/** The platform's account at an ACME CA (one per directory); its key sealed. */
export class AcmeAccount extends Model {
  static override tableName = 'acme_accounts';
  static override idColumn = 'directory_url';
  declare directory_url: string;
  declare key_sealed: string;
  declare account_url: string | null;
  declare created_at: Date;
}

/** A claim on a name: `pending` until proven, `verified` (it holds the name), or void: `lapsed` unproven in time, `superseded` by a claim proven first. */
export type SiteDomainStatus = 'pending' | 'verified' | 'lapsed' | 'superseded';

/** A custom domain of an environment (a team's claim on the name), served by its node's edge once verified. */
export class SiteDomain extends Model {
  static override tableName = 'site_domains';
  declare id: number;
  declare team_id: number;
  declare site_id: number;
  declare environment_id: number;
  declare name: string;
  declare status: SiteDomainStatus;
  declare verification_token: string;
  /** Pending: when the claim lapses unverified. */
  declare verify_by: Date | null;
  declare verified_by: 'txt' | 'hosted_zone' | null;
  declare verified_at: Date | null;
  declare created_at: Date;
}

export type SftpUserStatus = 'provisioning' | 'active' | 'revoked' | 'failed';
export type SftpPublicKey = { key: string; type: string; fingerprint: string; comment: string | null };

/** An SFTP login to one environment's files (shared/domains/sftp), served by its node's agent. */
export class SftpUser extends Model {
  static override tableName = 'sftp_users';
  declare id: number;
  declare team_id: number;
  declare site_id: number;
  declare environment_id: number;
  declare username: string;
  /** argon2id; never shown, never logged. */
  declare password_hash: string | null;
  declare public_keys: SftpPublicKey[];
  declare status: SftpUserStatus;
  declare created_by_user_id: number | null;
  declare revoked_at: Date | null;
  declare created_at: Date;
  declare updated_at: Date;

  static override get jsonAttributes(): string[] {
    return ['public_keys'];
  }
}

/** A DNS zone a team hosts; its records are at the provider (`provider`), which serves them. */
export class DnsZone extends Model {
  static override tableName = 'dns_zones';
  declare id: number;
  declare team_id: number;
  declare name: string;
  declare provider: string;
  declare created_by_user_id: number | null;
  declare created_at: Date;
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
  declare created_at: Date;
}
