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
  /** The node's one repository of before issue 19, below the agent's data directory; at /legacy while its snapshots move out. */
  repositoryDir: 'backups/restic',
  legacyRepositoryMount: '/legacy',
  /** Each environment's own repository: `<this>/<environment id>` below the agent's data directory. */
  environmentRepositoriesDir: 'backups/environments',
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

/**
 * Which repository: an environment's own (every backup since issue 19), or the node's one of before,
 * read until its snapshots have moved to their environments' repositories.
 */
export type RepositoryLocation = { kind: 'environment'; environmentId: number } | { kind: 'node' };

/** What restic needs to open a repository: its password and where it is (resticEnv turns it into an exec environment). */
export type RepositoryKey = { password: string; nodeId: string; storage: BackupStorage; location: RepositoryLocation };

/** A local repository's directory below the agent's data directory. */
export function repositoryDir(location: RepositoryLocation): string {
  return location.kind === 'node' ? BACKUP_RUNTIME.repositoryDir : `${BACKUP_RUNTIME.environmentRepositoriesDir}/${location.environmentId}`;
}

/**
 * Where restic finds a repository: `/repo` in the container (a local one, mounted there; the node's
 * old one at `/legacy` while its snapshots move), or in object storage `…/environments/<id>` (the
 * node's old one at `…/nodes/<node id>`).
 */
export function repositoryAddress(key: Pick<RepositoryKey, 'storage' | 'nodeId' | 'location'>, as: 'primary' | 'legacy' = 'primary'): string {
  const { storage, location } = key;
  if (storage.kind === 'local') return as === 'legacy' ? BACKUP_RUNTIME.legacyRepositoryMount : BACKUP_RUNTIME.repositoryMount;
  return `s3:${storage.endpoint}/${storage.bucket}/${location.kind === 'node' ? `nodes/${key.nodeId}` : `environments/${location.environmentId}`}`;
}

/**
 * The exec environment of a restic run. The secrets (the repository's password, an old repository's
 * while its snapshots move, the object store's keys) go in under names restic does not read:
 * SECRETS_TO_FILES, first in every script, writes them to files in a private tmpfs directory,
 * points restic at the files and unsets them, so no restic process (which reads tenant paths) holds a
 * secret in its environment or argv. The control plane forgets an exec's environment once the
 * command ends.
 */
export function resticEnv(key: RepositoryKey, legacy?: RepositoryKey): Record<string, string> {
  const env: Record<string, string> = {
    RESTIC_REPOSITORY: repositoryAddress(key),
    BERTH_RESTIC_PASSWORD: key.password,
    RESTIC_CACHE_DIR: `${BACKUP_RUNTIME.scratchDir}/cache`,
  };
  if (legacy) Object.assign(env, { LEGACY_REPOSITORY: repositoryAddress(legacy, 'legacy'), BERTH_LEGACY_RESTIC_PASSWORD: legacy.password });
  if (key.storage.kind === 'local') return env;
  const { storage } = key;
  Object.assign(env, {
    BERTH_STORE_ACCESS_KEY_ID: storage.accessKeyId,
    BERTH_STORE_SECRET_ACCESS_KEY: storage.secretAccessKey,
    STORE_ENDPOINT: storage.endpoint,
    STORE_ANSWER_SECONDS: String(storage.answerTimeoutSeconds),
  });
  if (storage.region) env.AWS_DEFAULT_REGION = storage.region;
  if (storage.caCertPem) env.STORE_CA_PEM = storage.caCertPem;
  return env;
}

/**
 * The secrets of resticEnv moved into files only root in this container reads (a tmpfs: never on
 * disk), removed when the script ends; restic reads them through RESTIC_PASSWORD_FILE and
 * AWS_SHARED_CREDENTIALS_FILE. A backup's walk cannot reach them: its view of the tenant's tree
 * follows no link (FILES_VIEW_GUARD).
 */
export const SECRETS_TO_FILES = String.raw`
umask 077
berth_secrets=$(mktemp -d /dev/shm/berth-restic.XXXXXX 2>/dev/null || mktemp -d /tmp/berth-restic.XXXXXX)
trap 'rm -rf "$berth_secrets"' EXIT
printf '%s' "$BERTH_RESTIC_PASSWORD" > "$berth_secrets/password"
export RESTIC_PASSWORD_FILE="$berth_secrets/password"
if printenv BERTH_LEGACY_RESTIC_PASSWORD >/dev/null; then printf '%s' "$BERTH_LEGACY_RESTIC_PASSWORD" > "$berth_secrets/legacy-password"; fi
if printenv BERTH_STORE_SECRET_ACCESS_KEY >/dev/null; then
  printf '[default]\naws_access_key_id = %s\naws_secret_access_key = %s\n' "$BERTH_STORE_ACCESS_KEY_ID" "$BERTH_STORE_SECRET_ACCESS_KEY" > "$berth_secrets/store-credentials"
  export AWS_SHARED_CREDENTIALS_FILE="$berth_secrets/store-credentials"
fi
unset BERTH_RESTIC_PASSWORD BERTH_LEGACY_RESTIC_PASSWORD BERTH_STORE_ACCESS_KEY_ID BERTH_STORE_SECRET_ACCESS_KEY
`;

/**
 * Before a walk of the tenant's files: their mount must follow no symbolic link (the agent remounts
 * it nosymfollow when it makes the container; the engine mounts it anew, without, when it restarts
 * one). Otherwise the backup refuses to read rather than read where a swapped-in link leads.
 */
export const FILES_VIEW_GUARD = String.raw`
awk -v target=${BACKUP_RUNTIME.filesMount} '$5 == target { options = $6 } END { exit !(options ~ /(^|,)nosymfollow(,|$)/) }' /proc/self/mountinfo || {
  echo "the site's files are mounted here without nosymfollow: refusing to read them" >&2; exit 78; }
`;

type Mount = NonNullable<CommandPayload<'container.ensure'>['mounts']>[number];

/**
 * A throwaway container of the backup image, for one piece of backup work on the node: the
 * repository of `repository.key` when it is a local one (read-only where the work only reads; the
 * node's old one beside it at /legacy while its snapshots move), the node's network with MariaDB's
 * address in /etc/hosts, bounded memory and processes, no privileges, and only the capabilities
 * named. `mounts` are the work's own (one environment's files, a restore's directory).
 */
export function resticContainerPayload(
  config: Config,
  node: Pick<Node, 'id'>,
  work: {
    name: string;
    role: 'backup' | 'restore';
    environment: Pick<Environment, 'id' | 'site_id'>;
    mounts: Mount[];
    repository: { key: Pick<RepositoryKey, 'location'>; access: 'read-only' | 'read-write'; legacy?: Pick<RepositoryKey, 'location'> | undefined };
    capabilities: string[];
    /** It talks to MariaDB (its address in /etc/hosts, so the container needs MariaDB up to be made). */
    database: boolean;
  },
): CommandPayload<'container.ensure'> {
  const layout = nodeLayout(node.id);
  const { key, access, legacy } = work.repository;
  const repositoryMounts: Mount[] =
    config.backupStorage.kind === 'local'
      ? [
          { type: 'bind', source: repositoryDir(key.location), target: BACKUP_RUNTIME.repositoryMount, read_only: access === 'read-only' },
          ...(legacy
            ? [{ type: 'bind' as const, source: repositoryDir(legacy.location), target: BACKUP_RUNTIME.legacyRepositoryMount, read_only: false }]
            : []),
        ]
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
 * A backup's container: the environment's files read-only, in a view whose symbolic links the
 * kernel never follows (nosymfollow): the tenant may swap any directory of its tree for a link
 * while restic walks it, and the walk still never leaves the tree. Root in it keeps one capability,
 * reading any file (wp-config.php is 0640): it cannot write the site, change owners, or gain anything
 * back. Its repository is the environment's own.
 */
export function backupContainerPayload(
  config: Config,
  node: Node,
  environment: Environment,
  backup: Backup,
  legacy?: Pick<RepositoryKey, 'location'>,
): CommandPayload<'container.ensure'> {
  return resticContainerPayload(config, node, {
    name: backupContainerName(node, backup),
    role: 'backup',
    environment,
    mounts: [{ type: 'bind', source: backupFilesDir(environment), target: BACKUP_RUNTIME.filesMount, read_only: true, nosymfollow: true }],
    repository: { key: { location: { kind: 'environment', environmentId: environment.id } }, access: 'read-write', legacy },
    capabilities: ['DAC_READ_SEARCH'],
    database: true,
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
  return String.raw`${SECRETS_TO_FILES}
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
 * Prints one JSON line: the snapshot this backup already has (a retry: SNAPSHOT_MAY_EXIST=1; a
 * first try skips the look, one restic run less), or the dump's size and restic's summary of a new
 * snapshot of the files and the dump. A partial snapshot (exit 3: some files unreadable) is
 * forgotten before the failure is reported. Then, in the same run (one exec less), the snapshots
 * the plan no longer keeps are forgotten (`"forgot"`), never pruned.
 *
 * The dump is written to the container's scratch directory and read into the same snapshot as the
 * files rather than piped in: restic's `--stdin-from-command` makes a snapshot of its own, with
 * nothing else in it, and restores and downloads read the dump and the files from one snapshot.
 */
export const SNAPSHOT_SCRIPT = String.raw`
set -euo pipefail
${REPOSITORY_CHECK}
# what the plan no longer keeps once this snapshot is in (FORGET_SNAPSHOTS, from the rows): true when forgotten; a
# failure is the retention step's to retry, never this snapshot's
forget_expired() {
  if [ -z "$FORGET_SNAPSHOTS" ]; then echo false; return; fi
  if restic forget --retry-lock ${BACKUP_RUNTIME.retryLock} $FORGET_SNAPSHOTS >&2; then echo true; else echo false; fi
}
if [ "$SNAPSHOT_MAY_EXIST" != 0 ]; then
  existing=$(restic snapshots --json --retry-lock ${BACKUP_RUNTIME.retryLock} --tag "backup-$BACKUP_ID")
  if [ "$existing" != "[]" ] && [ "$existing" != "null" ]; then echo "{\"existing\":$existing,\"forgot\":$(forget_expired)}"; exit 0; fi
fi
mkdir -p ${BACKUP_RUNTIME.scratchDir}
${FILES_VIEW_GUARD}
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
echo "{\"forgot\":$(forget_expired),\"database_bytes\":$(stat -c %s ${BACKUP_RUNTIME.scratchDir}/database.sql),\"summary\":$(grep '"message_type":"summary"' ${BACKUP_RUNTIME.scratchDir}/backup.json | tail -n 1)}"
`;

/**
 * Forgets the snapshots the plan no longer keeps (SNAPSHOT_IDS, decided from the backups' rows:
 * retention.ts); one already gone is ignored (a retry). Nothing is pruned: the prune sweep does that
 * later, once per repository (PRUNE_SCRIPT), so a backup never pays for reading the whole index.
 */
export const FORGET_EXPIRED_SCRIPT = String.raw`
set -euo pipefail
${REPOSITORY_CHECK}
restic forget --retry-lock ${BACKUP_RUNTIME.retryLock} $SNAPSHOT_IDS >&2
`;

/** The repository's data no snapshot refers to any more removed (the prune sweep's `backup.prune`). */
export const PRUNE_SCRIPT = String.raw`
set -euo pipefail
${REPOSITORY_OPEN}
restic prune --retry-lock ${BACKUP_RUNTIME.retryLock} >&2
echo '{"pruned":true}'
`;

export type SnapshotTaken = {
  snapshot_id: string;
  size_bytes: number;
  added_bytes: number;
  file_count: number;
  database_bytes: number | null;
  existing: boolean;
  /** FORGET_SNAPSHOTS were forgotten by the same run. */
  forgot: boolean;
};

type ResticSummary = { snapshot_id?: string; total_bytes_processed?: number; data_added?: number; total_files_processed?: number };
type ResticSnapshot = { id: string; summary?: ResticSummary };

/** The snapshot SNAPSHOT_SCRIPT reported, or null when its output says none. */
export function parseSnapshotRun(stdout: string): SnapshotTaken | null {
  const line = stdout.trim().split('\n').at(-1) ?? '';
  let parsed: { existing?: ResticSnapshot[]; database_bytes?: number; summary?: ResticSummary; forgot?: boolean };
  try {
    parsed = JSON.parse(line);
  } catch {
    return null;
  }
  const found = parsed.existing?.[0];
  const summary = found ? (found.summary ?? {}) : (parsed.summary ?? {});
  const id = found?.id ?? summary.snapshot_id;
  if (!id) return null;
  return {
    snapshot_id: id,
    size_bytes: summary.total_bytes_processed ?? 0,
    added_bytes: summary.data_added ?? 0,
    file_count: summary.total_files_processed ?? 0,
    database_bytes: parsed.database_bytes ?? null,
    existing: found !== undefined,
    forgot: parsed.forgot === true,
  };
}
