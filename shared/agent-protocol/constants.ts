/**
 * The agent protocol (ARCHITECTURE "Agent protocol"): the agent on a node calls the control plane,
 * never the other way round. Every request carries the protocol version in the `Berth-Agent-Protocol`
 * header; a control plane that cannot speak it answers 426 with `PROTOCOL_MISMATCH` and the versions
 * it supports, so an old agent stops with a clear message instead of misreading a command.
 *
 * Version history: 1 — enrollment, long-poll commands, progress, results, heartbeat.
 * 2 — container.ensure carries the isolation limits (CPU, PIDs, no-new-privileges, capabilities).
 * An agent of protocol 1 would drop those fields (unknown keys) and run sites unbounded, so it is
 * no longer served: it stops with PROTOCOL_MISMATCH until it is updated.
 */
export const PROTOCOL_VERSION = 2;
/** The oldest agent protocol this control plane still serves. */
export const MIN_PROTOCOL_VERSION = 2;
export const PROTOCOL_HEADER = 'Berth-Agent-Protocol';
export const AGENT_PREFIX = '/v1/agent';

/** An agent signs its own short-lived bearer tokens (EdDSA, Ed25519) with the key it registered. */
export const AGENT_TOKEN_TTL_SECONDS = 60;
export const AGENT_TOKEN_AUDIENCE = 'berth-agent-api';
export const HEARTBEAT_INTERVAL_SECONDS = 15;
/** Three missed heartbeats and the node is `offline`. */
export const OFFLINE_AFTER_SECONDS = 3 * HEARTBEAT_INTERVAL_SECONDS;
/** The longest a long-poll for commands waits before answering an empty list. */
export const MAX_POLL_WAIT_SECONDS = 25;
/** A delivered command not reported on (progress or result) within this is delivered again. */
export const COMMAND_LEASE_SECONDS = 60;

/** The environment logs an agent ships (docs/api/logs.md): access and error at the edge, php from php-fpm. */
export const ENVIRONMENT_LOG_FILES = ['access', 'error', 'php'] as const;
export type EnvironmentLogFile = (typeof ENVIRONMENT_LOG_FILES)[number];
/** The longest line kept (a longer one is cut); the most bytes of lines in one batch (JSON-escaped, within the agent body limit). */
export const LOG_LINE_MAX_CHARS = 8192;
export const LOG_BATCH_MAX_BYTES = 128 * 1024;
