import type { Redis } from 'ioredis';
import type { Config } from './config/config.ts';
import { createAccessTokenIssuer, type AccessTokenIssuer } from './crypto/access-tokens.ts';
import { createDb, type Db } from './db/knex.ts';
import { createQueues, type Queues } from './jobs/queues.ts';
import type { Logger } from './logger.ts';
import { createRateLimiter, type RateLimiter } from './rate-limit.ts';
import { createRedis } from './redis.ts';

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
};

export async function createContext(config: Config, logger: Logger): Promise<Context> {
  const db = createDb(config.databaseUrl);
  const redis = createRedis(config.redisUrl, 'commands');
  const queueConnection = createRedis(config.redisUrl, 'producer');
  for (const connection of [redis, queueConnection]) {
    connection.on('error', (error: Error) => logger.warn({ err: error.message }, 'redis connection error'));
  }
  return {
    config,
    logger,
    db,
    redis,
    queueConnection,
    queues: createQueues(queueConnection, config.redisPrefix),
    accessTokens: await createAccessTokenIssuer({
      issuer: config.publicUrl,
      privateKey: config.secrets.jwtPrivateKey,
      publicKeys: config.secrets.jwtPublicKeys,
    }),
    rateLimit: createRateLimiter(redis, config.redisPrefix),
  };
}

export async function closeContext(context: Context): Promise<void> {
  await context.queues.close();
  context.redis.disconnect();
  context.queueConnection.disconnect();
  await context.db.destroy();
}
