import { z } from 'zod';

// The constants live apart from the schemas so the agent imports them without zod (idle memory).
export * from './constants.ts';
import { ENVIRONMENT_LOG_FILES, LOG_BATCH_MAX_BYTES, LOG_LINE_MAX_CHARS } from './constants.ts';

/** Facts the agent reports about its host at enrollment (checked by the control plane). */
export const hostFacts = z.object({
  hostname: z.string().max(255),
  os: z.string().max(200).describe('e.g. "Debian GNU/Linux 12 (bookworm)"'),
  arch: z.string().max(50).describe('e.g. "x86_64"'),
  docker: z.object({ version: z.string().max(100), api_version: z.string().max(20) }).describe('What the Docker Engine API on the configured socket reports'),
});
export type HostFacts = z.infer<typeof hostFacts>;

/** POST /v1/agent/enroll: the one-time token from the installer, and the agent's new public key. */
export const enrollRequest = z.object({
  enrollment_token: z.string().min(20).max(200),
  public_key: z
    .object({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: z.string().regex(/^[A-Za-z0-9_-]{43}$/) })
    .describe('JWK of the Ed25519 public key'),
  agent_version: z.string().max(50),
  facts: hostFacts,
});
export const enrollReply = z.object({ node_id: z.uuid(), node_name: z.string() });

/** GET /v1/agent/commands?wait=<seconds>: what the node must do next. */
export const agentCommand = z.object({
  /** Deterministic (`<operation id>:<step>`): a redelivery has the same id, so the journal recognises it. */
  id: z.string().min(1).max(200),
  kind: z.string(),
  payload: z.unknown(),
  /** The agent gives up on the command at this time (ISO 8601) and reports a failure. */
  deadline_at: z.string(),
  delivery: z.number().int().describe('1 on the first delivery, more when redelivered'),
});
export type AgentCommand = z.infer<typeof agentCommand>;
export const commandsReply = z.object({ commands: z.array(agentCommand) });

export const logLine = z.object({ stream: z.enum(['info', 'stdout', 'stderr']), line: z.string().max(4000) });

/** POST /v1/agent/commands/{id}/progress: keeps the lease and streams log lines. */
export const progressRequest = z.object({
  progress: z.number().int().min(0).max(100).optional(),
  logs: z.array(logLine).max(200).default([]),
});

/** POST /v1/agent/commands/{id}/result: reported once; a repeat of the same outcome is accepted again. */
export const resultRequest = z.discriminatedUnion('status', [
  z.object({ status: z.literal('succeeded'), result: z.unknown() }),
  z.object({
    status: z.literal('failed'),
    error: z.object({
      message: z.string().max(2000),
      exit_code: z.number().int().nullable().default(null),
      stderr_tail: z.string().max(8000).nullable().default(null),
      /** Retrying cannot help (bad input, missing image): the step fails at once. */
      permanent: z.boolean().default(false),
    }),
  }),
]);
export type CommandResult = z.infer<typeof resultRequest>;

export const nodeMetrics = z.object({
  cpu_percent: z.number().min(0),
  load_average: z.array(z.number()).max(3),
  memory: z.object({ total_bytes: z.number().int(), used_bytes: z.number().int() }),
  disk: z.object({ total_bytes: z.number().int(), used_bytes: z.number().int(), path: z.string() }),
  containers: z.object({ running: z.number().int(), total: z.number().int() }),
});
export type NodeMetrics = z.infer<typeof nodeMetrics>;

/** POST /v1/agent/heartbeat, every HEARTBEAT_INTERVAL_SECONDS. */
export const heartbeatRequest = z.object({
  agent_version: z.string().max(50),
  metrics: nodeMetrics,
  /** Commands the agent is executing now: their leases are renewed. */
  running: z.array(z.string().max(200)).max(1000).default([]),
  /**
   * When this agent process started: a new value tells the control plane the agent restarted, and
   * it reconciles what the node hosts with its records (optional for agents that predate it).
   */
  started_at: z.iso.datetime().optional(),
  /** The agent's SFTP server, once it listens (optional: older agents and nodes without it leave it out). */
  sftp: z
    .object({
      port: z.number().int().min(1).max(65535),
      host_key: z
        .string()
        .regex(/^ssh-ed25519 [A-Za-z0-9+/=]+$/)
        .describe('The host key, an OpenSSH public key line'),
      host_key_fingerprint: z.string().regex(/^SHA256:[A-Za-z0-9+/]{43}$/),
    })
    .optional(),
});
/**
 * POST /v1/agent/logs: lines that appeared in environments' log files since the last batch. Sent
 * only when a file grew. `batch_id` is the agent's: a batch sent again (the answer was lost) is
 * stored once. `read_at` dates the lines that carry no time of their own.
 */
export const logsRequest = z.object({
  batch_id: z.uuid(),
  read_at: z.iso.datetime(),
  files: z
    .array(
      z.object({
        environment_id: z.number().int().positive(),
        file: z.enum(ENVIRONMENT_LOG_FILES),
        lines: z.array(z.string().min(1).max(LOG_LINE_MAX_CHARS)).min(1).max(LOG_BATCH_MAX_BYTES),
      }),
    )
    .max(3000),
});
export type LogsRequest = z.infer<typeof logsRequest>;
export const logsReply = z.object({ stored: z.number().int(), dropped: z.number().int() });

export const heartbeatReply = z.object({ node_status: z.enum(['enrolling', 'online', 'offline', 'draining', 'disabled']) });

/** The error body of /v1/agent (the /v1 envelope's error object). */
export const agentErrorCodes = [
  'AUTHENTICATION_ERROR',
  'AUTHORIZATION_ERROR',
  'NOT_FOUND',
  'CONFLICT',
  'VALIDATION_ERROR',
  'PROTOCOL_MISMATCH',
  'RATE_LIMIT_EXCEEDED',
  'INTERNAL_ERROR',
] as const;
