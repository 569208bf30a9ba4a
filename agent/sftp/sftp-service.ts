import type { Logger } from '../../shared/logger.ts';
import type { AgentConfig } from '../config.ts';
import { loadOrCreateHostKey } from './host-key.ts';
import { SftpServer, type SftpFacts } from './server.ts';
import { LoginThrottle } from './throttle.ts';
import { SftpUserStore } from './user-store.ts';

/** The SFTP side of the agent: its users (changed by commands) and its server (reported by heartbeats). */
export type SftpService = { store: SftpUserStore; server: SftpServer };

/**
 * Loads the users and the host key and starts listening. A users file or host key that cannot be
 * read, or a port that cannot be bound, is logged and leaves SFTP off (the heartbeat reports none,
 * commands answer that no SFTP server runs) rather than stopping the agent and every site with it.
 */
export async function startSftp(config: AgentConfig, logger: Logger): Promise<SftpService | undefined> {
  let service: SftpService;
  try {
    const store = new SftpUserStore(config.dataDir);
    store.load();
    const throttle = new LoginThrottle({ ...config.sftpThrottle });
    const server = new SftpServer({
      dataDir: config.dataDir,
      host: config.sftpHost,
      port: config.sftpPort,
      hostKey: loadOrCreateHostKey(config.dataDir),
      store,
      throttle,
      logger,
    });
    service = { store, server };
  } catch (error) {
    logger.error({ error: (error as Error).message }, 'sftp cannot start: SFTP is off on this node until the agent restarts');
    return undefined;
  }
  await service.server
    .listen()
    .catch((error: Error) =>
      logger.error(
        { host: config.sftpHost, port: config.sftpPort, error: error.message },
        'the sftp server cannot listen: SFTP is off on this node until the agent restarts',
      ),
    );
  return service;
}

export type { SftpFacts };
