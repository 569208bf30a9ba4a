import { UnrecoverableError, Worker } from 'bullmq';
import type { Context } from '../shared/context.ts';
import { bullPrefix, jobCatalogue, queueNames, type JobName } from '../shared/jobs/queues.ts';
import type { Mailer } from '../shared/mail/mailer.ts';
import { createRedis } from '../shared/redis.ts';
import { OPERATIONS_QUEUE } from '../shared/jobs/operation.jobs.ts';
import { SCHEDULES_QUEUE } from '../shared/jobs/schedule.jobs.ts';
import { WEBHOOKS_QUEUE } from '../shared/jobs/webhook.jobs.ts';
import { runnableKinds } from './operations/runbooks.ts';
import type { RunnableKind } from './operations/runbook.ts';
import { checkRegistry, type WorkerDeps } from './registry.ts';
import { listenForWebhookWork } from './webhooks/work-listener.ts';

/** Attempts in flight per worker process: most of their time is spent waiting on receivers. */
const WEBHOOK_CONCURRENCY = 16;

/** `close({ force: true })` drops the jobs in progress as a crash would (their locks lapse, another worker resumes them). */
export type RunningWorkers = { close(options?: { force?: boolean }): Promise<void> };

/**
 * One BullMQ worker per queue; each job goes to the processor its name is registered with, after
 * its payload is parsed with the same schema the producer used. A payload that does not parse can
 * never succeed, so it fails at once instead of being retried.
 */
export async function startWorkers(
  ctx: Context,
  mailer: Mailer,
  /** `operationKinds`: more kinds beside the catalogue's (tests of the operation machinery). */
  options: { concurrency?: number; operationKinds?: RunnableKind[] } = {},
): Promise<RunningWorkers> {
  const registry = checkRegistry();
  const deps: WorkerDeps = {
    db: ctx.db,
    mailer,
    logger: ctx.logger,
    publicUrl: ctx.config.publicUrl,
    secretKey: ctx.config.secrets.secretKey,
    queues: ctx.queues,
    signals: ctx.signals,
    config: ctx.config,
    operationKinds: runnableKinds(options.operationKinds),
  };
  const connection = createRedis(ctx.config.redisUrl, 'worker');
  connection.on('error', (error: Error) => ctx.logger.warn({ err: error.message }, 'worker redis connection error'));

  const workers = queueNames.map((queueName) => {
    const worker = new Worker(
      queueName,
      async (job, token) => {
        const entry = registry.get(job.name as JobName);
        if (!entry) throw new UnrecoverableError(`no processor for job ${job.name}`);
        const parsed = jobCatalogue[entry.name].schema.safeParse(job.data);
        if (!parsed.success) throw new UnrecoverableError(`invalid payload for ${job.name}: ${parsed.error.message}`);
        return entry.process(deps, parsed.data as never, job, token);
      },
      queueName === OPERATIONS_QUEUE
        ? {
            connection,
            prefix: bullPrefix(ctx.config.redisPrefix),
            concurrency: ctx.config.operations.concurrency,
            lockDuration: ctx.config.operations.lockMs,
            stalledInterval: ctx.config.operations.lockMs,
            maxStalledCount: 3,
            autorun: true,
          }
        : {
            connection,
            prefix: bullPrefix(ctx.config.redisPrefix),
            concurrency: queueName === WEBHOOKS_QUEUE ? WEBHOOK_CONCURRENCY : (options.concurrency ?? 4),
            autorun: true,
          },
    );
    worker.on('failed', (job, error) => {
      ctx.logger.error({ queue: queueName, job: job?.name, job_id: job?.id, attempts: job?.attemptsMade, err: error.message }, 'job failed');
    });
    worker.on('error', (error) => ctx.logger.error({ queue: queueName, err: error.message }, 'worker error'));
    return worker;
  });
  await Promise.all(workers.map((worker) => worker.waitUntilReady()));
  // One schedule per deployment (upsert): every worker process may declare it, it runs once per interval.
  await ctx.queues
    .get(OPERATIONS_QUEUE)
    .upsertJobScheduler('operations.sweep', { every: ctx.config.operations.sweepIntervalMs }, { name: 'operations.sweep', data: {} });
  await ctx.queues
    .get(SCHEDULES_QUEUE)
    .upsertJobScheduler('backups.schedule-tick', { every: ctx.config.backupScheduler.intervalMs }, { name: 'backups.schedule-tick', data: {} });
  if (ctx.config.backupPrune.sweepIntervalMs > 0) {
    await ctx.queues
      .get(SCHEDULES_QUEUE)
      .upsertJobScheduler('backups.prune-sweep', { every: ctx.config.backupPrune.sweepIntervalMs }, { name: 'backups.prune-sweep', data: {} });
  } else {
    await ctx.queues.get(SCHEDULES_QUEUE).removeJobScheduler('backups.prune-sweep');
  }
  await ctx.queues
    .get(SCHEDULES_QUEUE)
    .upsertJobScheduler('certificates.renewal-sweep', { every: ctx.config.certificateRenewal.intervalMs }, { name: 'certificates.renewal-sweep', data: {} });
  // a committed event wakes the dispatcher at once; the schedule below is the safety net
  const webhookWork = ctx.config.webhooks.dispatchIntervalMs > 0 ? listenForWebhookWork(deps) : undefined;
  if (ctx.config.webhooks.dispatchIntervalMs > 0) {
    await ctx.queues
      .get(SCHEDULES_QUEUE)
      .upsertJobScheduler(
        'webhooks.dispatch',
        { every: ctx.config.webhooks.dispatchIntervalMs },
        { name: 'webhooks.dispatch', data: {}, opts: { removeOnComplete: true, removeOnFail: 100 } },
      );
  }
  // a job scheduler runs at once when upserted, then every interval; 0 turns it off (and removes one left from before)
  if (ctx.config.billing.sweepIntervalMs > 0) {
    await ctx.queues
      .get(SCHEDULES_QUEUE)
      .upsertJobScheduler('billing.sweep', { every: ctx.config.billing.sweepIntervalMs }, { name: 'billing.sweep', data: {} });
  } else {
    await ctx.queues.get(SCHEDULES_QUEUE).removeJobScheduler('billing.sweep');
  }
  ctx.logger.info({ queues: queueNames }, 'workers running');

  return {
    // Worker.close() waits for the jobs in progress to finish before it resolves.
    async close(closing = {}) {
      await Promise.all(workers.map((worker) => worker.close(closing.force ?? false)));
      await webhookWork?.close();
      connection.disconnect();
    },
  };
}
