import { Model } from 'objection';

// The hosting nodes and the commands queued for their agents.

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
