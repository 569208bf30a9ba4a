import { Model } from 'objection';

// Custom domains, their TLS certificates and ACME account, and the DNS zones Berth hosts.

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
