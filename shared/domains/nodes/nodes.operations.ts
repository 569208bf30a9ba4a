import { z } from 'zod';
import { DEFAULT_DEADLINE_SECONDS, operationKind } from '../operations/operation-kind.ts';

/** A node enrolled over SSH (workers/nodes/ carries it out); the input names the method, never the secret. */
export const nodeEnroll = operationKind({
  kind: 'node.enroll',
  input: z.object({
    node_id: z.string(),
    name: z.string(),
    ssh: z.object({ host: z.string(), port: z.number().int(), user: z.string(), auth: z.enum(['private_key', 'password']) }),
  }),
  steps: [
    { name: 'connect' },
    { name: 'check_host' },
    { name: 'upload_agent' },
    { name: 'install_agent' },
    { name: 'await_registration' },
    { name: 'prepare_runtime' },
  ],
  // Enrollment is short; a stuck SSH session or a silent agent must not hold the node for 30 minutes.
  deadlineSeconds: 15 * 60,
});

/** What a node's agent hosts, made to match the control plane's records when the agent starts. */
export const nodeReconcile = operationKind({
  kind: 'node.reconcile',
  input: z.object({ node_id: z.string(), agent_started_at: z.string() }),
  steps: [
    { name: 'node_services' }, // network, edge proxy and MariaDB present and running
    { name: 'environments' }, // each live environment's container and edge route present
    { name: 'sftp_users' }, // the node's SFTP users as the records say: lost ones back, revoked ones gone
  ],
  deadlineSeconds: DEFAULT_DEADLINE_SECONDS,
});

/**
 * A round trip to the node's agent and back (a no-op command, journaled like any): whether the node
 * answers, and how long the whole path takes. Not serialized with anything: pings run side by side.
 */
export const nodePing = operationKind({
  kind: 'node.ping',
  input: z.object({ node_id: z.string() }),
  steps: [{ name: 'ping' }],
  deadlineSeconds: 2 * 60,
});

/** How long a ping's command waits for the node to answer. */
export const NODE_PING_COMMAND_SECONDS = 30;

export const nodeOperations = [nodeEnroll, nodeReconcile, nodePing] as const;
