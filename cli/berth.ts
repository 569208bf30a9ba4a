import { startApi, type RunningApi } from '../api/server.ts';
import { startWorkers, type RunningWorkers } from '../workers/main.ts';
import { loadConfig, type Config } from '../shared/config/config.ts';
import { ConfigError } from '../shared/config/config-error.ts';
import { closeContext, createContext, type Context } from '../shared/context.ts';
import { ensureDatabaseExists, migrateToLatest } from '../shared/db/migrate.ts';
import { createLogger, type Logger } from '../shared/logger.ts';
import { createMailer } from '../shared/mail/mailer.ts';
import { startLocalAgent } from './local-agent.ts';
import { SERVER_COMMANDS, serverUsage } from './server-commands.ts';

const usage = `usage: berth <command>\n${serverUsage()}`;

/** One entry point for every process, so each reads its configuration the same way, once. */
async function main(argv: string[]): Promise<void> {
  const command = argv[0];
  if (!command || !Object.hasOwn(SERVER_COMMANDS, command)) {
    console.error(usage);
    process.exit(2);
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`berth: ${error.message}`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const logger = createLogger({ level: config.logLevel, name: `berth-${command}` });

  if (command !== 'worker') await migrate(config, logger);
  if (command === 'migrate') return;
  if (command === 'admin') {
    process.exitCode = await admin(config, argv.slice(1));
    return;
  }

  const ctx = await createContext(config, logger);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, logger });
  let api: RunningApi | undefined;
  let workers: RunningWorkers | undefined;
  if (command === 'start' || command === 'worker') workers = await startWorkers(ctx, mailer);
  if (command === 'start' || command === 'api') api = await startApi(ctx);
  // One machine, all of Berth: this machine is a node too (LOCAL_AGENT).
  const localAgent = command === 'start' && api ? await startLocalAgent(ctx, api) : undefined;
  if (!config.smtpUrl) logger.warn({ outbox: `${config.dataDir}/outbox` }, 'SMTP_URL is not set: e-mail is written to the outbox folder');

  onShutdownSignal(logger, async () => {
    await localAgent?.stop();
    await api?.close();
    await workers?.close();
    mailer.close();
    await closeContext(ctx as Context);
  });
}

async function migrate(config: Config, logger: Logger): Promise<void> {
  await ensureDatabaseExists(config.databaseUrl);
  const { createDb } = await import('../shared/db/knex.ts');
  const db = createDb(config.databaseUrl, { poolMax: 1 });
  try {
    const applied = await migrateToLatest(db);
    logger.info({ applied }, applied.length > 0 ? 'database migrated' : 'database is up to date');
  } finally {
    await db.destroy();
  }
}

async function admin(config: Config, argv: string[]): Promise<number> {
  const { createDb } = await import('../shared/db/knex.ts');
  const { runAdminCommand } = await import('./admin.ts');
  const db = createDb(config.databaseUrl, { poolMax: 2 });
  try {
    // stdout, not the logger: the one-time link is for the person at the terminal, never for a log
    return await runAdminCommand(argv, { db, publicUrl: config.publicUrl, env: process.env, stdin: process.stdin, out: (line) => console.log(line) });
  } finally {
    await db.destroy();
  }
}

/** SIGTERM or SIGINT: stop accepting, finish what is in flight, close pools, exit. A second signal exits at once. */
function onShutdownSignal(logger: Logger, shutdown: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'shutting down');
    shutdown().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error('berth: failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
