import { z } from 'zod';

/**
 * Webhook deliveries on a queue of their own: a slow receiver (up to WEBHOOK_TIMEOUT per attempt)
 * must not hold back mail or operations. Their dispatcher (`webhooks.dispatch`) is a schedule
 * (schedule.jobs.ts): behind a backlog of slow deliveries it would stall every team's webhooks. Postgres is the truth (`webhook_deliveries`); a job is only
 * the wake-up for one attempt, so a lost job is made again by the next dispatch.
 */
export const WEBHOOKS_QUEUE = 'webhooks';

export const webhookJobPayloads = {
  'webhooks.deliver': z.object({ deliveryId: z.uuid() }),
} as const;
