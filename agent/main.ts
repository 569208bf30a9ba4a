import fs from 'node:fs';
import { PROTOCOL_VERSION } from '../shared/agent-protocol/constants.ts';
import { createLogger, type Logger } from '../shared/logger.ts';
import { Agent } from './agent.ts';
import { ConfigError, loadAgentConfig, type AgentConfig } from './config.ts';
import { EnrollmentRefused, ProtocolRefused, ensureEnrolled } from './enroll.ts';
import { signAgentToken } from './identity.ts';
import { Journal } from './journal.ts';
import { ControlPlaneLink } from './link.ts';
import { ProtocolClient, type ControlPlaneError } from './protocol-client.ts';
import { createDocker } from './runtime/docker.ts';
import { startSftp } from './sftp/sftp-service.ts';

/**
 * Exit codes a supervisor can tell apart (the systemd unit does not restart on 76-78):
 * 76 the control plane does not speak this agent's protocol (upgrade the agent),
 * 77 the enrollment token was refused (issue a new one), 78 the configuration is invalid.
 */
export const EXIT = { protocol: 76, enrollmentRefused: 77, config: 78 } as const;

async function main(): Promise<void> {
  let config: AgentConfig;
  try {
    config = loadAgentConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`berth-agent: ${error.message}`);
      process.exit(EXIT.config);
    }
    throw error;
  }
  const logger = createLogger({ level: config.logLevel, name: 'berth-agent' });
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o755 });
  const docker = createDocker(config.dockerSocket);
  const client = new ProtocolClient(config.controlPlaneUrl, config.concurrency * 2 + 2);
  const link = new ControlPlaneLink(logger);
  const stopping = new AbortController();
  let agent: Agent | null = null;
  let exitCode = 0;

  const shutdown = async (signal: string) => {
    if (stopping.signal.aborted) return;
    logger.info({ signal }, 'stopping');
    stopping.abort();
    await agent?.stop();
    client.close();
    logger.info('stopped');
    process.exit(exitCode);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // a bug in one command's path must not take the node's agent down with the others
  process.on('unhandledRejection', (reason) => logger.error({ error: reason instanceof Error ? reason.stack : String(reason) }, 'unhandled rejection'));

  logger.info(
    {
      version: config.agentVersion,
      protocol: PROTOCOL_VERSION,
      control_plane: config.controlPlaneUrl,
      data_dir: config.dataDir,
      docker_socket: config.dockerSocket,
      concurrency: config.concurrency,
    },
    'berth agent starting',
  );
  let enrolled;
  try {
    enrolled = await ensureEnrolled({ config, client, docker, link, logger }, stopping.signal);
  } catch (error) {
    return exitOn(error, logger);
  }
  if (!enrolled) return; // stopped while enrolling
  // The one-time token has served its purpose: nothing keeps it from here on.
  config = { ...config, enrollmentToken: undefined };
  delete process.env.AGENT_ENROLLMENT_TOKEN;

  const { identity, key } = enrolled;
  client.useSigner(() => signAgentToken(key, identity.node_id));
  const journal = new Journal(config.dataDir);
  await journal.open();
  // listening before the first heartbeat, which reports its port and host key
  const sftp = await startSftp(config, logger);
  agent = new Agent({ config, nodeId: identity.node_id, client, docker, journal, link, logger, ...(sftp ? { sftp } : {}) });
  agent.start();
  logger.info({ node_id: identity.node_id, node_name: identity.node_name }, 'agent running');
  const refusal = await agent.fatal;
  protocolRefused(refusal, logger);
  exitCode = EXIT.protocol;
  await shutdown('protocol mismatch');
}

function protocolRefused(error: ControlPlaneError, logger: Logger): void {
  logger.fatal(
    { agent_protocol: PROTOCOL_VERSION, supported: error.details.supported ?? null, error: error.message },
    `the control plane does not speak agent protocol ${PROTOCOL_VERSION}: install the agent that matches the control plane; stopping (exit ${EXIT.protocol})`,
  );
}

function exitOn(error: unknown, logger: Logger): never {
  if (error instanceof ConfigError) {
    logger.fatal(error.message);
    process.exit(EXIT.config);
  }
  if (error instanceof ProtocolRefused) {
    protocolRefused(error.cause, logger);
    process.exit(EXIT.protocol);
  }
  if (error instanceof EnrollmentRefused) {
    logger.fatal(`${error.message}; stopping (exit ${EXIT.enrollmentRefused})`);
    process.exit(EXIT.enrollmentRefused);
  }
  throw error;
}

await main();
