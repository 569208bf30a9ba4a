import type { BackupStorage, Config } from '../../config/config.ts';
import type { CommandPayload } from '../../agent-protocol/commands.ts';
import { LABELS } from '../../agent-protocol/commands.ts';
import type { Backup, Environment, Node } from '../../db/models.ts';
import { environmentLayout, nodeLayout } from '../nodes/node-layout.ts';

/** Where a backup's work happens: the throwaway container and the node's repository, as the container sees it. */
export const BACKUP_RUNTIME = {
  filesMount: '/data/files',
  repositoryMount: '/repo',
  /**
   * The dump is written here (inside the throwaway container, gone with it) and read into the
   * snapshot, where restore finds it. Below /tmp: root without DAC_OVERRIDE may not write at /.
   */
  scratchDir: '/tmp/berth-backup',
  /** On the node, below the agent's data directory. */
  repositoryDir: 'backups/restic',
  /** A lock held by another restic run (a prune of another environment's backups) is waited for, not failed on. */
  retryLock: '10m',
};

/** The throwaway container of one backup: it mounts that environment's files only, never the node's other sites. */
export function backupContainerName(node: Pick<Node, 'id'>, backup: Pick<Backup, 'id'>): string {
  return `${nodeLayout(node.id).network}-backup-${backup.id.slice(0, 8)}`;
}

export function backupFilesDir(environment: Environment): string {
  return environmentLayout(environment).filesDir;
}

/** What restic needs to open a node's repository: its password and where it is (resticEnv turns it into an exec environment). */
export type RepositoryKey = { password: string; nodeId: string; storage: BackupStorage };

/** Where restic finds the node's repository: `/repo` in the container (the node's disk), or `s3:<endpoint>/<bucket>/nodes/<node id>`. */
export function repositoryAddress(storage: BackupStorage, nodeId: string): string {
  return storage.kind === 's3' ? `s3:${storage.endpoint}/${storage.bucket}/nodes/${nodeId}` : BACKUP_RUNTIME.repositoryMount;
}

/**
 * The exec environment of a restic run: the repository and its password, and for object storage
 * the keys (restic reads AWS_*), the store's CA (written to a file by REPOSITORY_CHECK) and how long
 * the store may take to answer. The control plane forgets an exec's environment once the command ends.
 */
export function resticEnv(key: RepositoryKey): Record<string, string> {
  const env: Record<string, string> = { RESTIC_REPOSITORY: repositoryAddress(key.storage, key.nodeId), RESTIC_PASSWORD: key.password, RESTIC_CACHE_DIR: `${BACKUP_RUNTIME.scratchDir}/cache` };
  if (key.storage.kind === 'local') return env;
  const { storage } = key;
  Object.assign(env, {
    AWS_ACCESS_KEY_ID: storage.accessKeyId,
    AWS_SECRET_ACCESS_KEY: storage.secretAccessKey,
    STORE_ENDPOINT: storage.endpoint,
    STORE_ANSWER_SECONDS: String(storage.answerTimeoutSeconds),
  });
  if (storage.region) env.AWS_DEFAULT_REGION = storage.region;
  if (storage.caCertPem) env.STORE_CA_PEM = storage.caCertPem;
  return env;
}

type Mount = NonNullable<CommandPayload<'container.ensure'>['mounts']>[number];

/**
 * A throwaway container of the backup image, for one piece of backup work on the node: the node's
 * repository when it is a local one (read-only where the work only reads), the node's network with
 * MariaDB's address in /etc/hosts, bounded memory and processes, no privileges, and only the
 * capabilities named. `mounts` are the work's own (one environment's files, a restore's directory).
 */
export function resticContainerPayload(
  config: Config,
  node: Pick<Node, 'id'>,
  work: {
    name: string;
    role: 'backup' | 'restore';
    environment: Pick<Environment, 'id' | 'site_id'>;
    mounts: Mount[];
    repository: 'read-only' | 'read-write';
    capabilities: string[];
    /** It talks to MariaDB (its address in /etc/hosts, so the container needs MariaDB up to be made). */
    database: boolean;
  },
): CommandPayload<'container.ensure'> {
  const layout = nodeLayout(node.id);
  const repositoryMounts: Mount[] = config.backupStorage.kind === 'local'
    ? [{ type: 'bind', source: BACKUP_RUNTIME.repositoryDir, target: BACKUP_RUNTIME.repositoryMount, read_only: work.repository === 'read-only' }]
    : [];
  return {
    name: work.name,
    image: config.sites.backupImage,
    labels: { [LABELS.role]: work.role, [LABELS.environment]: String(work.environment.id), [LABELS.site]: String(work.environment.site_id) },
    network: layout.network,
    ...(work.database ? { hosts: [layout.mariadbContainer] } : {}),
    mounts: [...work.mounts, ...repositoryMounts],
    memory_bytes: 1024 ** 3,
    pids_limit: 256,
    no_new_privileges: true,
    cap_drop: ['ALL'],
    ...(work.capabilities.length > 0 ? { cap_add: work.capabilities } : {}),
    start: true,
  };
}

/**
 * A backup's container: the environment's files read-only (only that environment's: a link a
 * tenant planted in its tree leads nowhere else inside it). Root in it keeps one capability,
 * reading any file (wp-config.php is 0640): it cannot write the site, change owners, or gain anything back.
 */
export function backupContainerPayload(config: Config, node: Node, environment: Environment, backup: Backup): CommandPayload<'container.ensure'> {
  return resticContainerPayload(config, node, {
    name: backupContainerName(node, backup), role: 'backup', environment,
    mounts: [{ type: 'bind', source: backupFilesDir(environment), target: BACKUP_RUNTIME.filesMount, read_only: true }],
    repository: 'read-write', capabilities: ['DAC_READ_SEARCH'], database: true,
  });
}

/**
 * Run first by every script, and a no-op for a node-local repository (no STORE_ENDPOINT). For a
 * repository in object storage: the store's CA (passed as PEM in the exec's environment: the
 * container is thrown away after one backup and the PEM is no secret, so a file put on the node and
 * a mount would add a step for nothing) is written where RESTIC_CACERT points; then the repository
 * is opened, or made when restic says there is none (exit 10), each under STORE_ANSWER_SECONDS.
 * restic alone retries an unreachable store for 15 minutes; this fails the step within the deadline,
 * naming the store, before the database is dumped or anything is read. The calls after it are bounded
 * by the step's own deadline (they may legitimately wait for another run's lock or read for long).
 */
// exit 10: restic found no repository there. Another backup of this node may make it at the same moment: its repository is as good
const MAKE_MISSING_REPOSITORY = String.raw`  if [ "$status" -eq 10 ]; then store_call init || store_call --no-lock cat config; status=$?; fi
`;

function repositoryCheck(makeMissing: boolean): string {
  return String.raw`
if printenv STORE_ENDPOINT >/dev/null; then
  mkdir -p ${BACKUP_RUNTIME.scratchDir}
  if printenv STORE_CA_PEM >/dev/null; then
    printf '%s\n' "$STORE_CA_PEM" > ${BACKUP_RUNTIME.scratchDir}/store-ca.pem
    export RESTIC_CACERT=${BACKUP_RUNTIME.scratchDir}/store-ca.pem
  fi
  store_call() { timeout -k 5 "$STORE_ANSWER_SECONDS" restic "$@" > /dev/null 2> ${BACKUP_RUNTIME.scratchDir}/store.err; }
  set +e
  store_call --no-lock cat config; status=$?
${makeMissing ? MAKE_MISSING_REPOSITORY : ''}  set -e
  if [ "$status" -eq 124 ]; then
    grep 'returned error' ${BACKUP_RUNTIME.scratchDir}/store.err | tail -n 1 | sed 's/^.*retrying after [^:]*: //' >&2 || true
    echo "the repository at $STORE_ENDPOINT did not answer within $STORE_ANSWER_SECONDS s" >&2
    exit 124
  fi
  if [ "$status" -ne 0 ]; then
    grep -v '^\s*$' ${BACKUP_RUNTIME.scratchDir}/store.err | tail -n 2 >&2 || true
    echo "restic could not open the repository at $STORE_ENDPOINT (exit $status)" >&2
    exit "$status"
  fi
fi
`;
}

/** REPOSITORY_CHECK for runs that read or remove (a restore, a delete): a missing repository fails them (restic's exit 10) instead of being made. */
export const REPOSITORY_OPEN = repositoryCheck(false);
export const REPOSITORY_CHECK = repositoryCheck(true);

/**
 * (The image's client is MariaDB 11.8's, which requires TLS unless told otherwise; the node's
 * server, on the node's private network, offers none: --skip-ssl.)
 *
 * Prints one JSON line: the snapshot this backup already has (a retry), or the dump's size and
 * restic's summary of a new snapshot of the files and the dump. A partial snapshot (exit 3: some
 * files unreadable) is forgotten before the failure is reported.
 */
export const SNAPSHOT_SCRIPT = String.raw`
set -euo pipefail
${REPOSITORY_CHECK}
existing=$(restic snapshots --json --retry-lock ${BACKUP_RUNTIME.retryLock} --tag "backup-$BACKUP_ID")
if [ "$existing" != "[]" ] && [ "$existing" != "null" ]; then echo "{\"existing\":$existing}"; exit 0; fi
mkdir -p ${BACKUP_RUNTIME.scratchDir}
MYSQL_PWD="$DB_PASSWORD" mariadb-dump -h "$DB_HOST" -u "$DB_USER" --skip-ssl --single-transaction --quick --skip-lock-tables --no-tablespaces \
  --default-character-set=utf8mb4 "$DB_NAME" > ${BACKUP_RUNTIME.scratchDir}/database.sql
set +e
restic backup --json --retry-lock ${BACKUP_RUNTIME.retryLock} --host "env-$ENVIRONMENT_ID" \
  --tag berth --tag "env-$ENVIRONMENT_ID" --tag "kind-$KIND" --tag "backup-$BACKUP_ID" \
  ${BACKUP_RUNTIME.filesMount} ${BACKUP_RUNTIME.scratchDir}/database.sql > ${BACKUP_RUNTIME.scratchDir}/backup.json
status=$?
set -e
if [ "$status" -ne 0 ]; then
  restic forget --retry-lock ${BACKUP_RUNTIME.retryLock} --tag "backup-$BACKUP_ID" >/dev/null 2>&1 || true
  grep -h '"message_type":"error"' ${BACKUP_RUNTIME.scratchDir}/backup.json | tail -n 5 >&2 || true
  echo "restic backup exited $status" >&2
  exit "$status"
fi
echo "{\"database_bytes\":$(stat -c %s ${BACKUP_RUNTIME.scratchDir}/database.sql),\"summary\":$(grep '"message_type":"summary"' ${BACKUP_RUNTIME.scratchDir}/backup.json | tail -n 1)}"
`;

/**
 * Forgets what the plan no longer keeps for the environment (per kind: scheduled ones by
 * KEEP_SCHEDULED, every other kind by KEEP_MANUAL each), printing restic's JSON per kind, then prunes
 * once if anything went.
 */
export const RETENTION_SCRIPT = String.raw`
set -euo pipefail
${REPOSITORY_CHECK}
removed=0
for kind in scheduled manual pre_restore pre_push; do
  keep=$KEEP_MANUAL; [ "$kind" = scheduled ] && keep=$KEEP_SCHEDULED
  out=$(restic forget --json --retry-lock ${BACKUP_RUNTIME.retryLock} --group-by '' --tag "env-$ENVIRONMENT_ID,kind-$kind" --keep-last "$keep")
  echo "$out"
  case "$out" in *'"remove":[{'*) removed=1 ;; esac
done
if [ "$removed" = 1 ]; then restic prune --retry-lock ${BACKUP_RUNTIME.retryLock} >&2; fi
`;

export type SnapshotTaken = { snapshot_id: string; size_bytes: number; added_bytes: number; file_count: number; database_bytes: number | null; existing: boolean };

type ResticSummary = { snapshot_id?: string; total_bytes_processed?: number; data_added?: number; total_files_processed?: number };
type ResticSnapshot = { id: string; summary?: ResticSummary };

/** The snapshot SNAPSHOT_SCRIPT reported, or null when its output says none. */
export function parseSnapshotRun(stdout: string): SnapshotTaken | null {
  const line = stdout.trim().split('\n').at(-1) ?? '';
  let parsed: { existing?: ResticSnapshot[]; database_bytes?: number; summary?: ResticSummary };
  try {
    parsed = JSON.parse(line);
  } catch {
    return null;
  }
  const found = parsed.existing?.[0];
  const summary = found ? found.summary ?? {} : parsed.summary ?? {};
  const id = found?.id ?? summary.snapshot_id;
  if (!id) return null;
  return {
    snapshot_id: id,
    size_bytes: summary.total_bytes_processed ?? 0,
    added_bytes: summary.data_added ?? 0,
    file_count: summary.total_files_processed ?? 0,
    database_bytes: parsed.database_bytes ?? null,
    existing: found !== undefined,
  };
}

/** The ids of the snapshots RETENTION_SCRIPT's forget runs removed. */
export function removedSnapshots(stdout: string): string[] {
  const ids: string[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('[')) continue;
    for (const group of JSON.parse(line) as Array<{ remove?: ResticSnapshot[] | null }>) ids.push(...(group.remove ?? []).map((snapshot) => snapshot.id));
  }
  return ids;
}
