import { Model } from 'objection';

// Who signs in and what they belong to: users, teams, roles, memberships, invites, sessions and API tokens.

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
