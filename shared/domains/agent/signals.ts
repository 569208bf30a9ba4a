import { Redis } from 'ioredis';
import type { Logger } from '../../logger.ts';

/**
 * Wake-ups between processes over Redis pub/sub: "a command is waiting for node N" (to the API's
 * long-polls) and "command C has finished" (to the worker waiting on it). A signal only shortens a
 * wait; every waiter also looks at Postgres on its own, so a lost message or a Redis outage makes
 * things slower, never wrong.
 */
export type Signals = {
  publish(topic: string): Promise<void>;
  /** Resolves true when `topic` is published within `ms`, false otherwise. */
  wait(topic: string, ms: number, abort?: AbortSignal): Promise<boolean>;
  close(): void;
};

export function createSignals(redisUrl: string, prefix: string, publisher: Redis, logger: Logger): Signals {
  const channelPrefix = `${prefix}:signal:`;
  const waiters = new Map<string, Set<() => void>>();
  let subscriber: Redis | undefined;

  // Connected on first use: processes that never wait (most API requests) hold no extra connection.
  const subscribed = (): Redis => {
    if (subscriber) return subscriber;
    subscriber = new Redis(redisUrl, { maxRetriesPerRequest: null, retryStrategy: (attempt) => Math.min(attempt * 200, 2_000) });
    subscriber.on('error', (error: Error) => logger.warn({ err: error.message }, 'signal subscriber error'));
    subscriber.on('pmessage', (_pattern: string, channel: string) => {
      const topic = channel.slice(channelPrefix.length);
      for (const wake of waiters.get(topic) ?? []) wake();
    });
    void subscriber.psubscribe(`${channelPrefix}*`).catch((error: Error) => logger.warn({ err: error.message }, 'signal subscribe failed'));
    return subscriber;
  };

  return {
    async publish(topic) {
      await publisher.publish(`${channelPrefix}${topic}`, '1').catch((error: Error) => logger.warn({ err: error.message, topic }, 'signal not published'));
    },
    wait(topic, ms, abort) {
      subscribed();
      return new Promise<boolean>((resolve) => {
        const set = waiters.get(topic) ?? new Set();
        waiters.set(topic, set);
        const finish = (woken: boolean) => {
          clearTimeout(timer);
          abort?.removeEventListener('abort', onAbort);
          set.delete(wake);
          // another wait on the topic may have made a new set since this one emptied
          if (set.size === 0 && waiters.get(topic) === set) waiters.delete(topic);
          resolve(woken);
        };
        const wake = () => finish(true);
        const onAbort = () => finish(false);
        const timer = setTimeout(() => finish(false), ms);
        set.add(wake);
        abort?.addEventListener('abort', onAbort, { once: true });
      });
    },
    close() {
      for (const set of waiters.values()) for (const wake of set) wake();
      subscriber?.disconnect();
    },
  };
}

export const signalTopics = {
  nodeHasWork: (nodeId: string) => `node:${nodeId}:work`,
  commandFinished: (commandId: string) => `command:${commandId}:finished`,
};
