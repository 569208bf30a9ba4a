import { z } from 'zod';
import { cloneSiteBody } from '../sites/sites.schemas.ts';
import type { Backup } from '../../shared/db/models.ts';
import type { BackupState } from '../../shared/domains/backups/backups.ts';

export const backupJson = z
  .object({
    id: z.uuid(),
    site_id: z.number().int(),
    environment_id: z.number().int(),
    kind: z
      .enum(['manual', 'scheduled', 'pre_restore', 'pre_push'])
      .describe('Who asked: a person (`manual`), a schedule, or Berth before a restore or a push to production'),
    status: z.enum(['pending', 'running', 'succeeded', 'failed', 'expired']).describe("`expired`: removed from the repository by the plan's retention"),
    note: z.string().nullable(),
    snapshot_id: z
      .string()
      .nullable()
      .describe(
        "The restic snapshot in the environment's own repository (once it exists). A backup taken before repositories were per environment gets a new id when its environment's next backup moves it there",
      ),
    host: z.string().nullable().describe("The address the site answered at when the snapshot was taken; a restore rewrites it to the target's"),
    size_bytes: z.number().int().nullable().describe('Files and database dump read'),
    added_bytes: z.number().int().nullable().describe("What the snapshot added to the node's repository after deduplication"),
    file_count: z.number().int().nullable(),
    database_bytes: z.number().int().nullable().describe('The size of the database dump'),
    error: z.string().nullable().describe('For a failed backup: the step and what went wrong'),
    operation_id: z.uuid().nullable(),
    schedule_id: z.number().int().nullable(),
    created_at: z.string(),
    finished_at: z.string().nullable(),
  })
  .meta({ id: 'Backup' });

export function backupView(backup: Backup, state: BackupState): z.infer<typeof backupJson> {
  return {
    id: backup.id,
    site_id: backup.site_id,
    environment_id: backup.environment_id,
    kind: backup.kind,
    status: state.status,
    note: backup.note,
    snapshot_id: backup.snapshot_id,
    host: backup.host ?? null,
    size_bytes: backup.size_bytes,
    added_bytes: backup.added_bytes,
    file_count: backup.file_count,
    database_bytes: backup.database_bytes,
    error: state.error,
    operation_id: backup.operation_id,
    schedule_id: backup.schedule_id,
    created_at: backup.created_at.toISOString(),
    finished_at: backup.finished_at?.toISOString() ?? null,
  };
}

export const createBackupBody = z.strictObject({
  note: z.string().trim().min(1).max(200).optional().describe('A label for people, e.g. "before the theme update"'),
});

export const restoreBackupBody = z
  .strictObject({
    target: z
      .enum(['production', 'staging', 'development'])
      .optional()
      .describe('The environment to restore onto (default: the one the backup is of); it must be on the same node'),
    new_site: z
      .strictObject({
        name: cloneSiteBody.shape.name,
        slug: cloneSiteBody.shape.slug,
      })
      .optional()
      .describe("Restore into a new site instead (its production environment), made on the backup's node; needs `sites:create` too"),
  })
  .refine((body) => !(body.target && body.new_site), { error: 'give either `target` or `new_site`, not both', path: ['new_site'] });
