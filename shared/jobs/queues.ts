import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { z } from 'zod';
import { MAIL_QUEUE, mailJobPayloads } from './mail.jobs.ts';

/** Every job of Berth: its queue and the schema its producer and its processor both parse. */
export const jobCatalogue = {
  ...Object.fromEntries(Object.entries(mailJobPayloads).map(([name, schema]) => [name, { queue: MAIL_QUEUE, schema }])),
} as { [Name in keyof typeof mailJobPayloads]: { queue: typeof MAIL_QUEUE; schema: (typeof mailJobPayloads)[Name] } };

export type JobName = keyof typeof jobCatalogue;
export type JobPayload<Name extends JobName> = z.infer<(typeof jobCatalogue)[Name]['schema']>;
export const queueNames = [MAIL_QUEUE] as const;
export type QueueName = (typeof queueNames)[number];

/** Failed jobs stay for two weeks so a failure can be read; finished ones for a day. */
export const defaultJobOptions: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 2_000 },
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 14 * 24 * 3600 },
};

/** BullMQ keys live under `{<prefix>}`: one hash tag, so a Redis Cluster keeps each queue in a slot. */
export function bullPrefix(redisPrefix: string): string {
  return `{${redisPrefix}}`;
}

export type Queues = { get(name: QueueName): Queue; close(): Promise<void> };

export function createQueues(connection: Redis, redisPrefix: string): Queues {
  const queues = new Map<QueueName, Queue>(
    queueNames.map((name) => [name, new Queue(name, { connection, prefix: bullPrefix(redisPrefix), defaultJobOptions })]),
  );
  return {
    get(name) {
      return queues.get(name)!;
    },
    async close() {
      await Promise.all([...queues.values()].map((queue) => queue.close()));
    },
  };
}

export async function enqueue<Name extends JobName>(queues: Queues, name: Name, payload: JobPayload<Name>, options: JobsOptions = {}): Promise<void> {
  const { queue, schema } = jobCatalogue[name];
  await queues.get(queue).add(name, schema.parse(payload), options);
}
