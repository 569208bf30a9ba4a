import { Redis } from 'ioredis';

/**
 * - `commands`: fails fast while Redis is down (no offline queue, one retry), so a request answers
 *   instead of hanging.
 * - `producer`: enqueues jobs; waits out a short blip, then fails.
 * - `worker`: BullMQ workers block on Redis and must retry forever (maxRetriesPerRequest null).
 */
export function createRedis(url: string, purpose: 'commands' | 'producer' | 'worker'): Redis {
  const retryStrategy = (attempt: number) => Math.min(attempt * 200, 2_000);
  switch (purpose) {
    case 'worker':
      return new Redis(url, { maxRetriesPerRequest: null, retryStrategy });
    case 'producer':
      return new Redis(url, { maxRetriesPerRequest: 2, connectTimeout: 2_000, retryStrategy });
    case 'commands':
      return new Redis(url, {
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        connectTimeout: 2_000,
        commandTimeout: 2_000,
        retryStrategy,
      });
  }
}
