import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApi, type RunningApi } from '../../api/server.ts';
import { startWorkers, type RunningWorkers } from '../../workers/main.ts';
import type { RunnableKind } from '../../workers/operations/runbook.ts';
import { runnableKinds } from '../../workers/operations/runbooks.ts';
import type { WorkerDeps } from '../../workers/registry.ts';
import { loadConfig } from '../../shared/config/config.ts';
import { closeContext, createContext, type Context } from '../../shared/context.ts';
import { createLogger } from '../../shared/logger.ts';
import { createMailer, type Mailer } from '../../shared/mail/mailer.ts';
import { Client } from './client.ts';
import { Mailbox } from './mailbox.ts';
import { testDatabaseUrl, testRedisUrl } from './services.ts';

export const PANEL_URL = 'http://panel.berth.test';

/**
 * Limits far above what a test sends: the rate-limit tests set their own. Another process on a
 * stack's Redis prefix must take them too, or it counts the stack's requests against lower ones.
 */
export const TEST_RATE_LIMITS = {
  RATE_LIMIT_LOGIN: '1000/1m',
  RATE_LIMIT_REGISTER: '1000/1m',
  RATE_LIMIT_EMAIL: '1000/1m',
  RATE_LIMIT_API: '1000/1m',
  RATE_LIMIT_API_BURST: '1000/1s',
  RATE_LIMIT_AGENT: '100000/1m',
  RATE_LIMIT_AGENT_AUTH_FAILURES: '1000/1m',
};

export type Stack = {
  ctx: Context;
  api: RunningApi;
  mailbox: Mailbox;
  mailer: Mailer;
  /** The in-process workers (absent with `workers: false`). */
  workers: RunningWorkers | undefined;
  /** A new browser-like client with its own cookie jar; every answer is checked against /openapi.json. */
  client(): Client;
  stop(): Promise<void>;
};

/**
 * The whole control plane in the test process, against the real services: the API on a loopback
 * port, the workers, a real SMTP server receiving the mail. Each stack has its own Redis prefix and
 * data directory, so test files never see each other's queues, limits or keys.
 */
export async function startStack(options: { env?: Record<string, string>; workers?: boolean; operationKinds?: RunnableKind[] } = {}): Promise<Stack> {
  const mailbox = new Mailbox();
  await mailbox.start();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: testDatabaseUrl,
    REDIS_URL: testRedisUrl,
    REDIS_PREFIX: `test-${randomBytes(6).toString('hex')}`,
    PUBLIC_URL: PANEL_URL,
    SMTP_URL: mailbox.url,
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...TEST_RATE_LIMITS,
    SHUTDOWN_GRACE_MS: '1000',
    // every stack shares the test database: only the webhook tests dispatch (they pass an interval),
    // and no stack sweeps billing on its own (a sweep at start would renew and dun other files'
    // subscriptions under their feet); billing tests sweep their own teams with sweepAt
    WEBHOOK_DISPATCH_INTERVAL: '0ms',
    BILLING_SWEEP_INTERVAL_MS: '0',
    BACKUP_PRUNE_SWEEP_INTERVAL_MS: '0',
    ...options.env,
  });
  const logger = createLogger({ level: config.logLevel, name: 'berth-test' });
  const ctx = await createContext(config, logger);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir, logger });
  const workers: RunningWorkers | undefined =
    options.workers === false ? undefined : await startWorkers(ctx, mailer, { operationKinds: options.operationKinds ?? [] });
  const api = await startApi(ctx);
  return {
    ctx,
    api,
    mailbox,
    mailer,
    workers,
    // A test writes roles, memberships and sessions straight into the database too; the API keeps its
    // callers in memory until it hears such a change, so each request first waits for what was committed.
    client: () => new Client(api.url, PANEL_URL, { contract: true, beforeRequest: () => api.principals.sync() }),
    async stop() {
      // workers first: a job in progress may wait on an agent, which needs the API to fetch and report
      await workers?.close();
      await api.close();
      mailer.close();
      await closeContext(ctx);
      await mailbox.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** What a worker's processor gets, built from a stack (e.g. to run the operations sweep by hand). */
export function workerDepsOf(stack: Stack, operationKinds: RunnableKind[] = []): WorkerDeps {
  return {
    db: stack.ctx.db,
    config: stack.ctx.config,
    mailer: stack.mailer,
    logger: stack.ctx.logger,
    publicUrl: stack.ctx.config.publicUrl,
    secretKey: stack.ctx.config.secrets.secretKey,
    queues: stack.ctx.queues,
    signals: stack.ctx.signals,
    operationKinds: runnableKinds(operationKinds),
  };
}
