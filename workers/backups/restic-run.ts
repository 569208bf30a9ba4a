import type { BackupStorage } from '../../shared/config/config.ts';
import { StepFailed } from '../operations/runbook.ts';

/**
 * A script's failure told in restic's own last words (its stderr), not with the script quoted: the
 * message is what a customer reads on the backup, so the platform's object store (its address,
 * bucket and key id) is left out of it.
 */
export async function resticRun<T>(what: string, storage: BackupStorage, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof StepFailed) || error.exitCode === null) throw error;
    const tail = error.stderrTail === null || error.stderrTail === undefined ? error.stderrTail : withoutStorage(error.stderrTail, storage);
    const said = (tail ?? '').trim().split('\n').filter(Boolean).slice(-3).join('; ');
    throw new StepFailed(`${what} failed (exit ${error.exitCode}): ${said || 'no message'}`, {
      permanent: error.permanent,
      exitCode: error.exitCode,
      stderrTail: tail ?? null,
      cause: error,
    });
  }
}

/** The store's endpoint, host, address, bucket and access key id, each replaced by words that name none of them. */
export function withoutStorage(text: string, storage: BackupStorage): string {
  if (storage.kind !== 's3') return text;
  const secrets = [storage.endpoint, new URL(storage.endpoint).host, new URL(storage.endpoint).hostname, storage.accessKeyId, storage.bucket]
    .filter((value) => value.length >= 3)
    .sort((a, b) => b.length - a.length);
  const named = secrets.reduce((said, secret) => said.split(secret).join('<backup storage>'), text);
  // Go's network errors name the address the store resolved to
  return named.replace(/dial tcp (\[[^\]]+\]|[^\s:]+):\d+/g, 'dial tcp <backup storage>');
}
