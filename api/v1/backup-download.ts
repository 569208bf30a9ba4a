import type { Request, Response } from 'express';
import { z } from 'zod';
import { commandKinds } from '../../shared/agent-protocol/commands.ts';
import type { Context } from '../../shared/context.ts';
import { AgentCommandRow } from '../../shared/db/models.ts';
import { backupRepositoryKey } from '../../shared/domains/backups/repository-keys.ts';
import { queueAgentCommand } from '../../shared/domains/agent/agent-commands.ts';
import { signalTopics } from '../../shared/domains/agent/signals.ts';
import { exportFilename, exportStreams, findDownloadableBackup, StreamFailed, type ExportHandle } from '../../shared/domains/backups/exports.ts';
import { Conflict } from '../../shared/errors.ts';
import { REPOSITORY_OPEN, resticContainerPayload, resticEnv } from '../../shared/domains/backups/restic.ts';
import { nodeLayout } from '../../shared/domains/nodes/node-layout.ts';
import type { ResponseDoc } from '../openapi/documented-router.ts';
import { metaOf, metaSchema } from './envelope.ts';
import { principalOf } from './principal.ts';
import { pathIdOf } from './team-scope.ts';

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

export const gatewayError = z.object({
  error: z.object({ code: z.enum(['NODE_UNAVAILABLE']), message: z.string(), details: z.object({ reason: z.enum(['node_failed', 'node_timeout']) }) }),
  meta: metaSchema,
});

export const downloadResponses: Record<number, ResponseDoc> = {
  200: {
    description:
      'The backup as a zstd-compressed tar (the files under `data/files/`, the database dump at `tmp/berth-backup/database.sql`), ' +
      'streamed from the node as it is read (no Content-Length). A stream that breaks off is cut, never ended: a download that ' +
      'ends without the chunked terminator is incomplete.',
    binary: 'application/zstd',
    headers: { 'Content-Disposition': { description: '`attachment; filename="<site slug>-<environment>-<date>.tar.zst"`', schema: { type: 'string' } } },
  },
  502: { description: 'NODE_UNAVAILABLE (`node_failed`): the node could not read the backup', schema: gatewayError },
  504: { description: `NODE_UNAVAILABLE (\`node_timeout\`): the node did not start streaming within BACKUP_DOWNLOAD_START_SECONDS (default 60 s: offline, or busy with its commands)`, schema: gatewayError },
};

/**
 * GET …/backups/{backup}/download: the node streams the archive to the control plane (the agent
 * only calls out: it posts the stream to /v1/agent/streams/{id}), which pipes it to the caller.
 * Headers go out once the node's first bytes arrive.
 */
export async function downloadBackup(ctx: Context, req: Request, res: Response): Promise<void> {
  const siteId = pathIdOf(req, 'id', 'Site');
  const { backup, environment, site, node } = await findDownloadableBackup(ctx.db, principalOf(res).team_id, siteId, String(req.params.env), String(req.params.backup));
  const key = await backupRepositoryKey({ db: ctx.db, secretKey: ctx.config.secrets.secretKey, storage: ctx.config.backupStorage }, backup);
  if (!key) throw new Conflict('The repository that held this backup is gone');

  const filename = exportFilename(site, environment, backup);
  const handle = exportStreams.issue(node.id, {
    startMs: ctx.config.backupDownload.startMs,
    gapMs: STREAM_GAP_MS,
    open: () => {
      res.status(200);
      res.setHeader('Content-Type', 'application/zstd');
      res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
      res.setHeader('Cache-Control', 'no-store');
      return res;
    },
  });
  const commandId = `export:${handle.id}`;
  // the backup's own repository only: an archive of the snapshot needs none of the site's live files
  // and no MariaDB (a download works while the node's database is down)
  const container = resticContainerPayload(ctx.config, node, {
    name: `${nodeLayout(node.id).network}-export-${handle.id.slice(0, 8)}`, role: 'backup', environment, mounts: [],
    // writable: restic dump takes a lock (it waits for a prune rather than read packs being removed)
    repository: { key, access: 'read-write' }, capabilities: [], database: false,
  });
  await queueAgentCommand(ctx, {
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
  res.on('close', () => {
    if (!res.writableFinished) handle.fail(new StreamFailed('the client went away', { started: handle.started() }));
  });
  void watchCommand(ctx, handle, commandId);
  try {
    await handle.finished;
  } catch (error) {
    // a command the node has not taken yet is withdrawn (with the repository's password in it)
    await ctx.db('agent_commands').where({ id: commandId, status: 'pending' }).delete();
    if (res.headersSent || res.destroyed) {
      req.log.warn({ backup_id: backup.id, error: (error as Error).message }, 'backup download ended early');
      res.destroy();
      return;
    }
    const timedOut = error instanceof StreamFailed && error.timedOut;
    res.status(timedOut ? 504 : 502).json({
      error: { code: 'NODE_UNAVAILABLE', message: `Node ${node.name}: ${(error as Error).message}`, details: { reason: timedOut ? 'node_timeout' : 'node_failed' } },
      meta: metaOf(req),
    });
  }
}

/** Until the stream starts: a command that fails first (restic could not open the snapshot...) fails the download at once. */
async function watchCommand(ctx: Context, handle: ExportHandle, commandId: string): Promise<void> {
  let settled = false;
  handle.finished.then(() => (settled = true), () => (settled = true));
  try {
    while (!settled && !handle.started()) {
      const row = await AgentCommandRow.query(ctx.db).findById(commandId);
      if (row?.status === 'failed') {
        handle.fail(new StreamFailed(failureOf(ctx, commandId, row.error), { started: false }));
        return;
      }
      await ctx.signals.wait(signalTopics.commandFinished(commandId), POLL_MS);
    }
  } catch (error) {
    ctx.logger.warn({ command_id: commandId, error: (error as Error).message }, 'watching a backup export failed');
  }
}

/**
 * What the caller is told: that the node could not read the backup, and restic's exit code. Its
 * words (which name the store, the bucket and the node's paths) go to the operators' log only.
 */
function failureOf(ctx: Context, commandId: string, error: AgentCommandRow['error']): string {
  const said = (error?.stderr_tail ?? '').trim().split('\n').filter(Boolean).slice(-3).join('; ');
  ctx.logger.warn({ command_id: commandId, exit_code: error?.exit_code ?? null, said: said || error?.message }, 'a backup export failed on its node');
  return error?.exit_code != null ? `the node could not read the backup (restic exited ${error.exit_code}; the operators' log has its words)` : 'the node could not stream the backup';
}
