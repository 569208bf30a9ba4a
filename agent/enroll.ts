import type { KeyObject } from 'node:crypto';
import type { Logger } from '../shared/logger.ts';
import { Backoff, sleep } from './backoff.ts';
import { ConfigError, envName, type AgentConfig } from './config.ts';
import { hostFacts } from './host-facts.ts';
import { loadOrCreateKey, publicJwk, readNodeIdentity, writeNodeIdentity, type NodeIdentity } from './identity.ts';
import type { ControlPlaneLink } from './link.ts';
import type { ControlPlaneError, ProtocolClient } from './protocol-client.ts';
import type { Docker } from './runtime/docker.ts';

/** The enrollment token was refused (used, expired, or the node disabled): only a new token helps. */
export class EnrollmentRefused extends Error {}
/** The control plane does not speak this agent's protocol. */
export class ProtocolRefused extends Error {
  override readonly cause: ControlPlaneError;
  constructor(cause: ControlPlaneError) {
    super(cause.message);
    this.cause = cause;
  }
}

/**
 * The node's identity: read from the data directory, or on first start established by registering
 * the agent's new public key with the one-time enrollment token. Waits (with backoff) for the
 * Docker Engine API and the control plane; stops at once when the token or the protocol is refused.
 */
export async function ensureEnrolled(
  deps: { config: AgentConfig; client: ProtocolClient; docker: Docker; link: ControlPlaneLink; logger: Logger },
  signal: AbortSignal,
): Promise<{ identity: NodeIdentity; key: KeyObject } | null> {
  const { config, client, docker, link, logger } = deps;
  const key = loadOrCreateKey(config.dataDir);
  const known = readNodeIdentity(config.dataDir);
  if (known) {
    if (config.enrollmentToken) logger.info('already enrolled: the enrollment token in the configuration is not used (it can be removed)');
    return { identity: known, key };
  }
  if (!config.enrollmentToken) {
    const where = config.configPath ? ` (or "enrollment_token" in ${config.configPath})` : '';
    throw new ConfigError(
      `invalid agent configuration:\n  ${envName('enrollment_token')}${where}: required until the agent is enrolled (no node identity in ${config.dataDir}/keys)`,
    );
  }

  const backoff = new Backoff();
  let dockerDown = false;
  let facts;
  while (!facts) {
    try {
      facts = await hostFacts(docker);
    } catch (error) {
      if (!dockerDown)
        logger.warn({ socket: config.dockerSocket, error: (error as Error).message }, 'the Docker Engine API does not answer: waiting for it before enrolling');
      dockerDown = true;
      await sleep(backoff.next(), signal);
      if (signal.aborted) return null;
    }
  }
  backoff.reset();
  for (;;) {
    try {
      const reply = await client.enroll(
        { enrollment_token: config.enrollmentToken, public_key: publicJwk(key), agent_version: config.agentVersion, facts },
        signal,
      );
      link.up();
      const identity: NodeIdentity = {
        node_id: reply.node_id,
        node_name: reply.node_name,
        enrolled_at: new Date().toISOString(),
        control_plane_url: config.controlPlaneUrl,
      };
      writeNodeIdentity(config.dataDir, identity);
      logger.info({ node_id: identity.node_id, node_name: identity.node_name }, "enrolled: the node's key is registered");
      return { identity, key };
    } catch (error) {
      if (signal.aborted) return null;
      const kind = link.down(error);
      if (kind === 'protocol') throw new ProtocolRefused(error as ControlPlaneError);
      if (kind !== 'unreachable')
        throw new EnrollmentRefused(`the control plane refused the enrollment (${(error as Error).message}); ask for a new enrollment token`);
      await sleep(backoff.next(), signal);
      if (signal.aborted) return null;
    }
  }
}
