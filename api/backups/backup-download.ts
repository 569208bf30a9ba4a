import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Context } from '../../shared/context.ts';
import { exportBackup } from '../../shared/domains/backups/backup-export.ts';
import { addressOf } from '../../shared/domains/backups/export-relay.ts';
import { exportFilename, findDownloadableBackup, StreamFailed } from '../../shared/domains/backups/exports.ts';
import type { ResponseDoc } from '../openapi/documented-router.ts';
import { metaOf, metaSchema } from '../v1/envelope.ts';
import { principalOf } from '../v1/principal.ts';
import { pathIdOf } from '../v1/team-scope.ts';

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
  504: {
    description: `NODE_UNAVAILABLE (\`node_timeout\`): the node did not start streaming within BACKUP_DOWNLOAD_START_SECONDS (default 60 s: offline, or busy with its commands)`,
    schema: gatewayError,
  },
};

/**
 * GET …/backups/{backup}/download: the node streams the archive to the control plane (the agent
 * only calls out: it posts the stream to /v1/agent/streams/{id}), which pipes it to the caller.
 * Headers go out once the node's first bytes arrive.
 */
export async function downloadBackup(ctx: Context, req: Request, res: Response): Promise<void> {
  const found = await findDownloadableBackup(ctx.db, principalOf(res).team_id, pathIdOf(req, 'id', 'Site'), String(req.params.env), String(req.params.backup));
  const filename = exportFilename(found.site, found.environment, found.backup);
  const { handle, finished } = await exportBackup(
    ctx,
    found,
    () => {
      res.status(200);
      res.setHeader('Content-Type', 'application/zstd');
      res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
      res.setHeader('Cache-Control', 'no-store');
      return res;
    },
    addressOf(req.socket),
  );
  res.on('close', () => {
    if (!res.writableFinished) handle.fail(new StreamFailed('the client went away', { started: handle.started() }));
  });
  try {
    await finished;
  } catch (error) {
    if (res.headersSent || res.destroyed) {
      req.log.warn({ backup_id: found.backup.id, error: (error as Error).message }, 'backup download ended early');
      res.destroy();
      return;
    }
    const timedOut = error instanceof StreamFailed && error.timedOut;
    res.status(timedOut ? 504 : 502).json({
      error: {
        code: 'NODE_UNAVAILABLE',
        message: `Node ${found.node.name}: ${(error as Error).message}`,
        details: { reason: timedOut ? 'node_timeout' : 'node_failed' },
      },
      meta: metaOf(req),
    });
  }
}
