import { randomBytes } from 'node:crypto';
import type { BackupStorage } from '../../config/config.ts';
import { seal, unseal } from '../../crypto/sealed.ts';
import type { Db } from '../../db/knex.ts';
import { BackupRepository, EnvironmentBackupRepository, type Backup, type Environment } from '../../db/models.ts';
import type { RepositoryKey } from './restic.ts';

type Keys = { db: Db; secretKey: Buffer; storage: BackupStorage };

/**
 * An environment's own repository key; its password is made (and sealed) the first time it is asked
 * for. Several backups may ask at once: the first insert wins and everyone reads the row back.
 *
 * `initialized` tells the runbook whether to run its own `restic init`: for a node-local repository
 * once (recorded in the row); for one in object storage never, since the row cannot tell which store
 * it was made in and an unanswered `restic init` would retry for 15 minutes: each script's
 * REPOSITORY_CHECK opens it, or makes it, under a deadline instead. `quickKey`: whether a
 * node-local repository has its quick key (restic-quick-key.ts); one in object storage keeps restic's.
 */
export async function environmentRepositoryKey(
  keys: Keys,
  environment: Pick<Environment, 'id' | 'node_id'>,
): Promise<{ key: RepositoryKey; initialized: boolean; quickKey: boolean }> {
  await EnvironmentBackupRepository.query(keys.db)
    .insert({ environment_id: environment.id, node_id: environment.node_id, password_sealed: seal(keys.secretKey, randomBytes(32).toString('base64url')) })
    .onConflict('environment_id')
    .ignore();
  const repository = (await EnvironmentBackupRepository.query(keys.db).findById(environment.id))!;
  return {
    key: {
      password: unseal(keys.secretKey, repository.password_sealed),
      nodeId: repository.node_id,
      storage: keys.storage,
      location: { kind: 'environment', environmentId: environment.id },
    },
    initialized: keys.storage.kind === 's3' || repository.initialized_at !== null,
    quickKey: keys.storage.kind === 's3' || repository.quick_key_at !== null,
  };
}

/** The key of the node's one repository of before issue 19, while it holds snapshots; null once it is gone (or never was). */
export async function legacyRepositoryKey(keys: Keys, nodeId: string): Promise<RepositoryKey | null> {
  const repository = await BackupRepository.query(keys.db).findById(nodeId);
  if (!repository) return null;
  return { password: unseal(keys.secretKey, repository.password_sealed), nodeId, storage: keys.storage, location: { kind: 'node' } };
}

/** The key of the repository that holds `backup`'s snapshot (null: a node repository that is gone, so nothing of it is left). */
export async function backupRepositoryKey(keys: Keys, backup: Pick<Backup, 'repository' | 'node_id' | 'environment_id'>): Promise<RepositoryKey | null> {
  if (backup.repository === 'node') return legacyRepositoryKey(keys, backup.node_id);
  return (await environmentRepositoryKey(keys, { id: backup.environment_id, node_id: backup.node_id })).key;
}
