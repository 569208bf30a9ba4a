import { z } from 'zod';
import { hostFacts, nodeMetrics } from '../../shared/agent-protocol/protocol.ts';
import type { NodeRecord } from '../../shared/domains/nodes/nodes.ts';
import type { SshCredentials } from '../../shared/domains/nodes/ssh-credentials.ts';

const timestamp = z.string().describe('ISO 8601 UTC');
const nodeStatuses = ['enrolling', 'online', 'offline', 'draining', 'disabled', 'failed'] as const;

const nodeName = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, { error: 'must be 1 to 63 lower-case letters, digits or inner hyphens' })
  .describe('Unique among nodes, e.g. `fsn1-node-04`');
const region = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/, { error: 'must be 1 to 32 lower-case letters, digits or inner hyphens' })
  .describe('Where the node is, e.g. `eu-central`');
const address = z.union([z.ipv4(), z.ipv6(), z.hostname()], { error: 'must be an IP address or a host name' });
const capacity = z
  .object({
    max_sites: z.number().int().min(0).max(100_000).optional().describe('Most site environments placed on it'),
    disk_bytes: z.number().int().min(0).optional().describe('Disk the sites on it may use together'),
  })
  .describe('What the node may hold (placement reads it once sites exist)');

const sshLogin = z
  .object({
    host: address.describe('Where enrollment connects over SSH'),
    port: z.number().int().min(1).max(65_535).default(22),
    user: z
      .string()
      .regex(/^[a-z_][a-z0-9_.-]{0,31}$/, { error: 'must be a Unix user name' })
      .describe('Usually `root`: the agent is installed as a systemd service'),
    private_key: z.string().min(1).max(16_000).optional().describe('OpenSSH or PEM private key'),
    passphrase: z.string().max(1_000).optional().describe("The private key's passphrase, if it has one"),
    password: z.string().min(1).max(1_000).optional(),
  })
  .superRefine((ssh, context) => {
    if ((ssh.private_key === undefined) === (ssh.password === undefined)) {
      context.addIssue({ code: 'custom', path: ['private_key'], message: 'give exactly one of private_key and password' });
    }
    if (ssh.passphrase !== undefined && ssh.private_key === undefined) {
      context.addIssue({ code: 'custom', path: ['passphrase'], message: 'only goes with private_key' });
    }
  })
  .describe(
    'How enrollment logs in, once. The private key or password is stored sealed (SECRET_KEY) until the node is enrolled, then ' +
      'erased; it is never shown again, never logged and never part of the operation.',
  );

export const createNodeBody = z.object({
  name: nodeName,
  region,
  public_address: address.describe('Where the sites on the node are reached: its public IP address or host name'),
  ssh: sshLogin,
  capacity: capacity.default({}),
});

export const retryEnrollmentBody = z.object({
  ssh: sshLogin
    .optional()
    .describe('New SSH details, replacing the stored ones (the pinned host key is forgotten when host or port change); absent: the stored credentials'),
});

export function credentialsOf(ssh: z.infer<typeof sshLogin>): SshCredentials {
  if (ssh.private_key !== undefined) return { private_key: ssh.private_key, ...(ssh.passphrase !== undefined ? { passphrase: ssh.passphrase } : {}) };
  return { password: ssh.password! };
}

export const updateNodeBody = z.object({
  name: nodeName.optional(),
  region: region.optional(),
  public_address: address.optional(),
  capacity: capacity.optional().describe('Replaces the whole capacity object'),
  edge_https_port: z
    .number()
    .int()
    .min(1)
    .max(65_535)
    .nullable()
    .optional()
    .describe("The host port the node's edge serves HTTPS on (443 on a real node), null for none; needed before a site there gets a certificate"),
  status: z
    .enum(['online', 'draining', 'disabled'])
    .optional()
    .describe(
      '`draining` (from online): no new sites, the ones it has stay. `online` (from draining, or from disabled once enrolled). ' +
        '`disabled` (from any status): its agent is refused from its next request on. Other moves answer 409.',
    ),
});

export const nodesQuery = z.object({
  status: z.enum(nodeStatuses).optional().describe('The status nodes show (`offline` and `failed` included)'),
  region: z.string().max(32).optional(),
});

export const nodeJson = z
  .object({
    id: z.uuid(),
    name: z.string(),
    region: z.string(),
    public_address: z.string(),
    edge_https_port: z.number().int().nullable(),
    status: z
      .enum(nodeStatuses)
      .describe(
        '`enrolling` until its agent registers and heartbeats; `online`; `offline` (online or draining, but no heartbeat for ' +
          'three intervals); `draining`; `disabled` (by an operator); `failed` (its latest enrollment failed: see `enrollment.error`)',
      ),
    ssh: z.object({
      host: z.string(),
      port: z.number().int(),
      user: z.string(),
      host_key_sha256: z.string().nullable().describe('The host key pinned at the first connection (`SHA256:...`, as ssh-keygen -l shows it)'),
      credentials_stored: z.boolean().describe('Whether sealed SSH credentials are still kept (until enrollment succeeds)'),
    }),
    sftp: z
      .object({
        port: z.number().int(),
        host_key: z.string().describe("The SFTP server's host key, an OpenSSH public key line (for known_hosts)"),
        host_key_fingerprint: z.string().describe('`SHA256:...`, as ssh-keygen -l and the sftp client show it'),
      })
      .nullable()
      .describe("The agent's SFTP server, as its heartbeats report it; null until it listens"),
    agent_version: z.string().nullable(),
    protocol_version: z.number().int().nullable(),
    last_heartbeat_at: timestamp.nullable(),
    enrolled_at: timestamp.nullable(),
    disabled_at: timestamp.nullable(),
    facts: hostFacts.nullable().describe('What the agent reported about its host when it registered'),
    metrics: nodeMetrics.nullable().describe('From the latest heartbeat'),
    capacity,
    hosts: z.object({ sites: z.number().int().describe('Site environments placed on the node (none before sites exist)') }),
    enrollment: z
      .object({
        operation_id: z.uuid().describe('The latest `node.enroll` operation: GET /v1/operations/{id} shows its steps and log'),
        status: z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']),
        error: z.object({ step: z.string().nullable(), message: z.string() }).nullable(),
      })
      .nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Node' });

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);

export function nodeView(node: NodeRecord): z.infer<typeof nodeJson> {
  return {
    id: node.id,
    name: node.name,
    region: node.region,
    public_address: node.public_address,
    edge_https_port: node.edge_https_port ?? null,
    status: node.view_status,
    ssh: {
      host: node.ssh_host,
      port: node.ssh_port,
      user: node.ssh_user,
      host_key_sha256: node.ssh_host_key_sha256,
      credentials_stored: node.ssh_credentials_sealed !== null,
    },
    sftp:
      node.sftp_port !== null && node.sftp_host_key && node.sftp_host_key_fingerprint
        ? { port: node.sftp_port, host_key: node.sftp_host_key, host_key_fingerprint: node.sftp_host_key_fingerprint }
        : null,
    agent_version: node.agent_version,
    protocol_version: node.protocol_version,
    last_heartbeat_at: iso(node.last_heartbeat_at),
    enrolled_at: iso(node.enrolled_at),
    disabled_at: iso(node.disabled_at),
    facts: (node.facts as z.infer<typeof hostFacts> | null) ?? null,
    metrics: (node.metrics as z.infer<typeof nodeMetrics> | null) ?? null,
    capacity: node.capacity ?? {},
    hosts: { sites: 0 },
    enrollment:
      node.enroll_operation_id && node.enroll_status
        ? {
            operation_id: node.enroll_operation_id,
            status: node.enroll_status,
            error: node.enroll_error ? { step: node.enroll_error.step ?? null, message: node.enroll_error.message } : null,
          }
        : null,
    created_at: iso(node.created_at)!,
    updated_at: iso(node.updated_at)!,
  };
}
