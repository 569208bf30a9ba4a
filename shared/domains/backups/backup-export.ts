import type { Writable } from 'node:stream';
import { commandKinds } from '../../agent-protocol/commands.ts';
import type { Config } from '../../config/config.ts';
import type { Db } from '../../db/knex.ts';
import { AgentCommandRow, type Backup, type Environment, type Node } from '../../db/models.ts';
import { Conflict } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { queueAgentCommand, withdrawPendingCommand } from '../agent/agent-commands.ts';
import type { Redis } from 'ioredis';
import { signalTopics, type Signals } from '../agent/signals.ts';
import { nodeLayout } from '../nodes/node-layout.ts';
import { forgetExportOwner, recordExportOwner } from './export-relay.ts';
import { exportStreams, StreamFailed, type ExportHandle } from './exports.ts';
import { backupRepositoryKey } from './repository-keys.ts';
import { REPOSITORY_OPEN, resticContainerPayload, resticEnv } from './restic.ts';

/** The longest pause between two parts of the stream. */
const STREAM_GAP_MS = 60_000;
/** How long the node may stream one archive. */
const STREAM_DEADLINE_SECONDS = 6 * 3600;
/** How often the waiting download looks at the command itself, in case a signal was lost. */
const POLL_MS = 2_000;

/**
 * The archive: the snapshot as a tar (the files under data/files/, the dump at
 * tmp/berth-backup/database.sql) compressed with zstd as it is read. The snapshot is looked up
 * first: zstd prints a frame even for an input that never came, so a snapshot restic cannot find
 * must fail before the pipe (a 502), not as a cut 200. pipefail: a restic failing later fails the
 * run, and the agent cuts the stream instead of ending it.
 */
const EXPORT_SCRIPT = String.raw`
set -euo pipefail
${REPOSITORY_OPEN}
restic cat snapshot --no-lock "$SNAPSHOT_ID" >/dev/null
restic dump --retry-lock 30s --archive tar "$SNAPSHOT_ID" / | zstd -q -3 -T2 -c
`;

type ExportDeps = { db: Db; config: Config; signals: Signals; logger: Logger; redis: Redis };

/**
 * A backup streamed from its node as a zstd tar: the node is asked (an agent command with the
 * backup's own repository only: an archive of the snapshot needs none of the site's live files and
 * no MariaDB, so a download works while the node's database is down) to post the archive to
 * /v1/agent/streams/{id}, which `open()`'s sink receives. The handle ends when the stream has, or
 * fails: the node could not read the backup (fails at once), did not start in time, or the caller
 * went away (`handle.fail`); `finished` settles with it, once a failed export's command is withdrawn
 * (when the node has not taken it). `address` is where other API processes reach this one: a part
 * the node posts to another process is forwarded here (export-relay.ts).
 */
export async function exportBackup(
  deps: ExportDeps,
  found: { backup: Backup & { snapshot_id: string }; environment: Environment; node: Node },
  open: () => Writable,
  address: string,
): Promise<{ handle: ExportHandle; finished: Promise<void> }> {
  const { backup, environment, node } = found;
  const key = await backupRepositoryKey({ db: deps.db, secretKey: deps.config.secrets.secretKey, storage: deps.config.backupStorage }, backup);
  if (!key) throw new Conflict('The repository that held this backup is gone');
  const handle = exportStreams.issue(node.id, { startMs: deps.config.backupDownload.startMs, gapMs: STREAM_GAP_MS, open });
  const commandId = `export:${handle.id}`;
  await recordExportOwner(deps.redis, deps.config.redisPrefix, handle.id, address, STREAM_DEADLINE_SECONDS).catch((error: unknown) =>
    // without Redis the stream still reaches this process when the node posts it here (one API process)
    deps.logger.warn({ stream_id: handle.id, error: (error as Error).message }, "a backup export's address was not recorded"),
  );
  const forgetOwner = () => void forgetExportOwner(deps.redis, deps.config.redisPrefix, handle.id).catch(() => undefined); // it expires anyway
  void handle.finished.then(forgetOwner, forgetOwner);
  const container = resticContainerPayload(deps.config, node, {
    name: `${nodeLayout(node.id).network}-export-${handle.id.slice(0, 8)}`,
    role: 'backup',
    environment,
    mounts: [],
    // writable: restic dump takes a lock (it waits for a prune rather than read packs being removed)
    repository: { key, access: 'read-write' },
    capabilities: [],
    database: false,
  });
  await queueAgentCommand(deps, {
    id: commandId,
    nodeId: node.id,
    operationId: null,
    kind: 'stream.upload',
    payload: commandKinds['stream.upload'].payload.parse({
      stream_id: handle.id,
      container,
      cmd: ['bash', '-c', EXPORT_SCRIPT],
      env: { ...resticEnv(key), SNAPSHOT_ID: backup.snapshot_id },
    }),
    deadlineAt: new Date(Date.now() + STREAM_DEADLINE_SECONDS * 1000),
  });
  void watchCommand(deps, handle, commandId);
  const finished = handle.finished.catch(async (error: unknown) => {
    // a command the node has not taken yet is withdrawn (with the repository's password in it)
    await withdrawPendingCommand(deps.db, commandId).catch((failure: unknown) =>
      deps.logger.warn({ command_id: commandId, error: (failure as Error).message }, 'a backup export command was not withdrawn'),
    );
    throw error;
  });
  return { handle, finished };
}

/** Until the stream starts: a command that fails first (restic could not open the snapshot...) fails the download at once. */
async function watchCommand(deps: ExportDeps, handle: ExportHandle, commandId: string): Promise<void> {
  let settled = false;
  handle.finished.then(
    () => (settled = true),
    () => (settled = true),
  );
  try {
    while (!settled && !handle.started()) {
      const row = await AgentCommandRow.query(deps.db).findById(commandId);
      if (row?.status === 'failed') {
        handle.fail(new StreamFailed(failureOf(deps.logger, commandId, row.error), { started: false }));
        return;
      }
      await deps.signals.wait(signalTopics.commandFinished(commandId), POLL_MS);
    }
  } catch (error) {
    deps.logger.warn({ command_id: commandId, error: (error as Error).message }, 'watching a backup export failed');
  }
}

/**
 * What the caller is told: that the node could not read the backup, and restic's exit code. Its
 * words (which name the store, the bucket and the node's paths) go to the operators' log only.
 */
function failureOf(logger: Logger, commandId: string, error: AgentCommandRow['error']): string {
  const said = (error?.stderr_tail ?? '').trim().split('\n').filter(Boolean).slice(-3).join('; ');
  logger.warn({ command_id: commandId, exit_code: error?.exit_code ?? null, said: said || error?.message }, 'a backup export failed on its node');
  return error?.exit_code != null
    ? `the node could not read the backup (restic exited ${error.exit_code}; the operators' log has its words)`
    : 'the node could not stream the backup';
}
