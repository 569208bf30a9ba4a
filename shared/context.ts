import type { Redis } from 'ioredis';
import type { Config } from './config/config.ts';
import { createAccessTokenIssuer, type AccessTokenIssuer } from './crypto/access-tokens.ts';
import { createDb, type Db } from './db/knex.ts';
import { createQueues, type Queues } from './jobs/queues.ts';
import type { Logger } from './logger.ts';
import { createRateLimiter, type RateLimiter } from './rate-limit.ts';
import { createRedis } from './redis.ts';
import { createSignals, type Signals } from './domains/agent/signals.ts';
import { createEventNotifier, type EventNotifier } from './domains/operations/event-notifier.ts';

/**
 * What a process holds open, built once at start and passed down explicitly: plain values, no
 * service locator. Domain functions take the parts they use (`Pick<Context, 'db' | 'redis'>`).
 */
export type Context = {
  config: Config;
  logger: Logger;
  db: Db;
  /** Fails fast while Redis is down: rate limits, the session cache. */
  redis: Redis;
  /** Enqueues jobs; its own connection, so a queue add retries a moment before failing. */
  queueConnection: Redis;
  queues: Queues;
  accessTokens: AccessTokenIssuer;
  rateLimit: RateLimiter;
  /** Wake-ups between processes (agent long-polls, workers waiting on agent commands). */
  signals: Signals;
  /** Wakes the operation event streams (one LISTEN connection, opened by the first stream). */
  operationEvents: EventNotifier;
};

export async function createContext(config: Config, logger: Logger): Promise<Context> {
  const db = createDb(config.databaseUrl);
  const redis = createRedis(config.redisUrl, 'commands');
  const queueConnection = createRedis(config.redisUrl, 'producer');
  for (const connection of [redis, queueConnection]) {
    connection.on('error', (error: Error) => logger.warn({ err: error.message }, 'redis connection error'));
  }
  // The commands connection has no offline queue: give it a moment to connect, so the first
  // requests do not fail for a Redis that is merely still connecting. A Redis that is down does not
  // stop the start; /status reports it.
  if (!(await readyWithin(redis, REDIS_CONNECT_WAIT_MS))) logger.error({ redis: 'unavailable' }, 'redis is not reachable; starting degraded');
  return {
    config,
    logger,
    db,
    redis,
    queueConnection,
    queues: createQueues(queueConnection, config.redisPrefix, {
      operations: { attempts: config.operations.attempts, backoff: { type: 'exponential', delay: config.operations.retryDelayMs } },
    }),
    accessTokens: await createAccessTokenIssuer({
      issuer: config.publicUrl,
      privateKey: config.secrets.jwtPrivateKey,
      publicKeys: config.secrets.jwtPublicKeys,
    }),
    rateLimit: createRateLimiter(redis, config.redisPrefix),
    signals: createSignals(config.redisUrl, config.redisPrefix, queueConnection, logger),
    operationEvents: createEventNotifier(config.databaseUrl, logger),
  };
}

const REDIS_CONNECT_WAIT_MS = 3_000;

async function readyWithin(redis: Redis, ms: number): Promise<boolean> {
  if (redis.status === 'ready') return true;
  let timer: NodeJS.Timeout | undefined;
  const ready = await Promise.race([
    new Promise<boolean>((resolve) => redis.once('ready', () => resolve(true))),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]);
  clearTimeout(timer);
  return ready;
}

export async function closeContext(context: Context): Promise<void> {
  context.signals.close();
  await context.operationEvents.close();
  await context.queues.close();
  context.redis.disconnect();
  context.queueConnection.disconnect();
  await context.db.destroy();
}
