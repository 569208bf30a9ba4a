import { z } from 'zod';

export const OPERATIONS_QUEUE = 'operations';

/**
 * One job runs one operation: its id is the operation's id (so enqueueing twice is a no-op) and its
 * payload is only that id; the row in Postgres holds the rest. The sweeper is a scheduled job.
 */
export const operationJobPayloads = {
  'operation.run': z.object({ operationId: z.uuid() }),
  'operations.sweep': z.object({}),
} as const;
