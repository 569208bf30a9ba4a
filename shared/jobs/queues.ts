import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { z } from 'zod';
import { MAIL_QUEUE, mailJobPayloads } from './mail.jobs.ts';
import { OPERATIONS_QUEUE, operationJobPayloads } from './operation.jobs.ts';
import { SCHEDULES_QUEUE, scheduleJobPayloads } from './schedule.jobs.ts';
import { WEBHOOKS_QUEUE, webhookJobPayloads } from './webhook.jobs.ts';

function onQueue<Queue extends string, Payloads extends Record<string, z.ZodType>>(queue: Queue, payloads: Payloads) {
  return Object.fromEntries(Object.entries(payloads).map(([name, schema]) => [name, { queue, schema }])) as {
    [Name in keyof Payloads]: { queue: Queue; schema: Payloads[Name] };
  };
}

/** Every job of Berth: its queue and the schema its producer and its processor both parse. */
export const jobCatalogue = {
  ...onQueue(MAIL_QUEUE, mailJobPayloads),
  ...onQueue(OPERATIONS_QUEUE, operationJobPayloads),
  ...onQueue(SCHEDULES_QUEUE, scheduleJobPayloads),
  ...onQueue(WEBHOOKS_QUEUE, webhookJobPayloads),
};

export type JobName = keyof typeof jobCatalogue;
export type JobPayload<Name extends JobName> = z.infer<(typeof jobCatalogue)[Name]['schema']>;
export const queueNames = [MAIL_QUEUE, OPERATIONS_QUEUE, SCHEDULES_QUEUE, WEBHOOKS_QUEUE] as const;
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

/** Per-queue overrides of the default job options (operations take their retry policy from config). */
export type QueueJobOptions = Partial<Record<QueueName, JobsOptions>>;

export function createQueues(connection: Redis, redisPrefix: string, overrides: QueueJobOptions = {}): Queues {
  const queues = new Map<QueueName, Queue>(
    queueNames.map((name) => [
      name,
      new Queue(name, { connection, prefix: bullPrefix(redisPrefix), defaultJobOptions: { ...defaultJobOptions, ...overrides[name] } }),
    ]),
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
