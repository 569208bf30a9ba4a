import { Model } from 'objection';

// SFTP accounts on a site's environments.

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
