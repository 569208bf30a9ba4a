import type { Backup, BackupKind } from '../../db/models.ts';

/** How many backups of an environment the plan keeps: `scheduled` of the scheduled ones, `manual` of each other kind. */
export type RetentionKeep = { scheduled: number; manual: number };

type Kept = Pick<Backup, 'id' | 'kind' | 'created_at'>;

/**
 * The backups the plan no longer keeps, oldest last: per kind, all but the newest `keep` (what
 * restic's `forget --keep-last` per kind tag did, decided from the rows instead, so a backup that
 * expires nothing runs no restic at all).
 */
export function beyondRetention<T extends Kept>(backups: readonly T[], keep: RetentionKeep): T[] {
  const byKind = new Map<BackupKind, T[]>();
  for (const backup of backups) byKind.set(backup.kind, [...(byKind.get(backup.kind) ?? []), backup]);
  return [...byKind].flatMap(([kind, ofKind]) =>
    [...ofKind]
      .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || b.id.localeCompare(a.id))
      .slice(Math.max(0, kind === 'scheduled' ? keep.scheduled : keep.manual)),
  );
}
