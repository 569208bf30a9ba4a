import type { Knex } from 'knex';
import type { BackupKind, Environment } from '../../db/models.ts';
import { Conflict } from '../../errors.ts';

export type BackupRequest = {
  teamId: number;
  environment: Environment;
  kind: BackupKind;
  userId?: number | null;
  note?: string | null;
  /** A scheduled backup names its schedule and slot: a slot makes one backup, however often it is asked. */
  schedule?: { id: number; slotAt: Date };
};

/** The backup's row (no operation of its own: another operation's steps make it); null for a schedule's slot already taken. */
export async function insertBackup(trx: Knex.Transaction, request: BackupRequest): Promise<string | null> {
  const { environment } = request;
  if (environment.status !== 'active')
    throw new Conflict(`The ${environment.kind} environment is ${environment.status}, not active: it cannot be backed up now`);
  const inserted = await trx('backups')
    .insert({
      team_id: request.teamId,
      site_id: environment.site_id,
      environment_id: environment.id,
      node_id: environment.node_id,
      kind: request.kind,
      note: request.note ?? null,
      schedule_id: request.schedule?.id ?? null,
      slot_at: request.schedule?.slotAt ?? null,
      created_by_user_id: request.userId ?? null,
    })
    .onConflict(['schedule_id', 'slot_at'])
    .ignore()
    .returning('id');
  return (inserted[0] as { id: string } | undefined)?.id ?? null;
}
