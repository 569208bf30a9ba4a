import { z } from 'zod';
import type { BackupSchedule } from '../../shared/db/models.ts';
import { MAX_SCHEDULES_PER_ENVIRONMENT } from '../../shared/domains/backups/schedules.ts';

const cron = z
  .string()
  .max(100)
  .describe(
    'Five fields, minute hour day-of-month month day-of-week (`30 2 * * *`: every day at 02:30). At most hourly: the minute field names one ' +
      'minute (`*/15 * * * *` is refused). No seconds field, no `@daily` aliases.',
  );
const timezone = z.string().max(64).describe('The IANA time zone the expression is read in (`Europe/Berlin`); daylight saving time is followed');

export const createBackupScheduleBody = z.strictObject({
  cron,
  timezone: timezone.default('UTC'),
  enabled: z.boolean().default(true).describe('A disabled schedule keeps its row and fires nothing'),
});

export const updateBackupScheduleBody = z.strictObject({
  cron: cron.optional(),
  timezone: timezone.optional(),
  enabled: z.boolean().optional().describe('Enabling it again starts from the next slot after now; missed slots are not made up'),
});

export const backupScheduleJson = z
  .object({
    id: z.number().int(),
    environment_id: z.number().int(),
    cron: z.string(),
    timezone: z.string(),
    enabled: z.boolean(),
    next_run_at: z.string().nullable().describe('ISO 8601 UTC: the next slot, when the scheduler will request its backup (null while disabled)'),
    last_slot_at: z
      .string()
      .nullable()
      .describe('The last slot the scheduler handled: its backup was requested, or skipped because the environment was not active'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'BackupSchedule' });

export const backupSchedulesDescription =
  `An environment has at most ${MAX_SCHEDULES_PER_ENVIRONMENT} schedules. Each slot of a schedule makes one \`scheduled\` backup (a \`backup.create\` ` +
  'operation), however many workers run; after downtime, the slots missed are not run one by one: the most recent runs once. ' +
  'An environment that is not active at a slot (being made, changed or deleted) skips it.';

export function backupScheduleView(schedule: BackupSchedule): z.infer<typeof backupScheduleJson> {
  return {
    id: schedule.id,
    environment_id: schedule.environment_id,
    cron: schedule.cron,
    timezone: schedule.timezone,
    enabled: schedule.enabled,
    next_run_at: schedule.enabled ? schedule.next_run_at.toISOString() : null,
    last_slot_at: schedule.last_slot_at?.toISOString() ?? null,
    created_at: schedule.created_at.toISOString(),
    updated_at: schedule.updated_at.toISOString(),
  };
}
