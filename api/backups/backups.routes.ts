import type { Request } from 'express';
import { z } from 'zod';
import type { Context } from '../../shared/context.ts';
import { backupStates, createManualBackup, deleteBackup, findBackup, listBackups, restoreBackup } from '../../shared/domains/backups/backups.ts';
import { restoreBackupToNewSite } from '../../shared/domains/backups/restore-to-site.ts';
import { findEnvironment } from '../../shared/domains/sites/environments.ts';
import { PermissionDenied } from '../../shared/errors.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { v1Router } from '../v1/authorize.ts';
import { downloadBackup, downloadResponses } from './backup-download.ts';
import { backupJson, backupView, createBackupBody, restoreBackupBody } from './backups.schemas.ts';
import { dataEnvelope, errorEnvelope, listEnvelope, pageQuery, sendData, sendList } from '../v1/envelope.ts';
import { sendAccepted, operationJson } from '../operations/operations.schemas.ts';
import { principalHolds, principalOf } from '../v1/principal.ts';
import { siteJson, siteView } from '../sites/sites.schemas.ts';
import { pathIdOf } from '../v1/team-scope.ts';
import { environmentParams, uuid } from '../openapi/path-parameters.ts';

const common = { tags: ['backups'], security: ['bearerAuth', 'sessionCookie'] as Array<'bearerAuth' | 'sessionCookie'> };
const forbidden = { description: 'AUTHORIZATION_ERROR: `details.permission` is missing', schema: errorEnvelope };
const notFound = { description: "NOT_FOUND: no such site in the caller's team, no such environment, or no such backup of it", schema: errorEnvelope };
const base = '/sites/:id/environments/:env/backups';

function siteAndKind(req: Request): [number, string] {
  return [pathIdOf(req, 'id', 'Site'), String(req.params.env)];
}

/**
 * An environment's backups (issue 12): restic snapshots of its files and database dump, kept in
 * the node's repository (encrypted, deduplicated). A backup is an operation on the environment, so
 * it waits for a push or a change in progress and never reads half of one.
 */
export function backupsRoutes(ctx: Context) {
  return v1Router()
    .route(
      {
        ...common,
        method: 'get',
        path: base,
        params: environmentParams,
        operationId: 'backups.list',
        summary: "The environment's backups, newest first",
        permission: 'backups:read',
        query: pageQuery,
        responses: {
          200: { description: 'Expired ones included (their snapshots are gone)', schema: listEnvelope(backupJson) },
          403: forbidden,
          404: notFound,
        },
      },
      async (req, res) => {
        const query = parseOrFail(pageQuery, req.query);
        const [siteId, kind] = siteAndKind(req);
        const { environment } = await findEnvironment(ctx.db, principalOf(res).team_id, siteId, kind);
        const { rows, total } = await listBackups(ctx.db, environment, { page: query.page, pageSize: query.page_size });
        const states = await backupStates(ctx.db, rows);
        sendList(
          req,
          res,
          rows.map((backup) => backupView(backup, states.get(backup.id)!)),
          { page: query.page, pageSize: query.page_size },
          total,
        );
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: base,
        params: environmentParams,
        operationId: 'backups.create',
        summary: 'Back the environment up now',
        description:
          'Answers 202 with the backup (`pending`) and its `backup.create` operation: the database dumped in one transaction and the files ' +
          "read into one restic snapshot on the node, then the plan's retention applied (`backups_manual_keep` manual backups are kept).",
        body: createBackupBody,
        permission: 'backups:create',
        audit: { action: 'backup.created', target: 'site', targetParam: 'id' },
        responses: {
          202: {
            description: 'Accepted: the backup and its operation (also at `Location`)',
            schema: dataEnvelope(z.object({ backup: backupJson, operation: operationJson })),
          },
          403: forbidden,
          404: notFound,
          409: { description: 'CONFLICT: the environment is not active (being made, changed or deleted)', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const body = parseOrFail(createBackupBody, req.body ?? {});
        const principal = principalOf(res);
        const [siteId, kind] = siteAndKind(req);
        const { backup, operation } = await createManualBackup(ctx, { teamId: principal.team_id, userId: principal.user_id }, siteId, kind, body.note ?? null);
        await sendAccepted(ctx, req, res, operation, { backup: backupView(backup, { status: backup.status, error: null }) });
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: `${base}/:backup`,
        params: { ...environmentParams, backup: uuid('backup') },
        operationId: 'backups.get',
        summary: 'One backup',
        permission: 'backups:read',
        responses: { 200: { description: 'The backup', schema: dataEnvelope(backupJson) }, 403: forbidden, 404: notFound },
      },
      async (req, res) => {
        const [siteId, kind] = siteAndKind(req);
        const { environment } = await findEnvironment(ctx.db, principalOf(res).team_id, siteId, kind);
        const backup = await findBackup(ctx.db, environment, String(req.params.backup));
        const states = await backupStates(ctx.db, [backup]);
        sendData(req, res, backupView(backup, states.get(backup.id)!));
      },
    )
    .route(
      {
        ...common,
        method: 'delete',
        path: `${base}/:backup`,
        params: { ...environmentParams, backup: uuid('backup') },
        operationId: 'backups.delete',
        summary: 'Delete a backup',
        description:
          "A backup with a snapshot answers 202 with a `backup.delete` operation, which forgets the snapshot, prunes the node's repository " +
          'and then removes the backup; a failed or expired one (no snapshot) is removed at once (204).',
        permission: 'backups:delete',
        audit: { action: 'backup.deleted', target: 'site', targetParam: 'id' },
        responses: {
          202: { description: 'Accepted: the operation (also at `Location`)', schema: dataEnvelope(z.object({ operation: operationJson })) },
          204: { description: 'Removed (it had no snapshot)' },
          403: forbidden,
          404: notFound,
          409: { description: 'CONFLICT: the backup is still being made, or being restored from', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const principal = principalOf(res);
        const [siteId, kind] = siteAndKind(req);
        const { operation } = await deleteBackup(ctx, { teamId: principal.team_id, userId: principal.user_id }, siteId, kind, String(req.params.backup));
        if (!operation) {
          res.status(204).end();
          return;
        }
        await sendAccepted(ctx, req, res, operation, {});
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: `${base}/:backup/restore`,
        params: { ...environmentParams, backup: uuid('backup') },
        operationId: 'backups.restore',
        summary: 'Restore a backup onto this or another environment of the site, or into a new site',
        description:
          'Answers 202 with a `backup.restore` operation. The target is backed up first (`safety_backup`, kind `pre_restore`); the backup is ' +
          "restored beside the site (a new directory and a new database) and checked, and only then swapped in: the site's container stops " +
          'for the swap (seconds) and starts on the restored files and tables. A failure before the swap leaves the site untouched; the ' +
          "replaced files are kept until the restore has verified the site. Restoring another environment's backup rewrites its address " +
          "to the target's (serialized data kept valid).\n\n" +
          'With `new_site`, a new site is made from the backup instead (a `site.restore` operation; `site` in the answer, `safety_backup` ' +
          "null): its production environment on the backup's node, with the PHP version and table prefix of the environment backed up, " +
          "its address rewritten to the new site's. The plan is checked as for any new site (402), and the caller needs `sites:create` too. " +
          'The site backed up is not touched.',
        body: restoreBackupBody,
        permission: 'backups:restore',
        audit: { action: 'backup.restored', target: 'site', targetParam: 'id' },
        responses: {
          202: {
            description:
              "Accepted: the backup being restored, the target's safety backup (null for a new site), the new site if one is made, and the operation",
            schema: dataEnvelope(z.object({ backup: backupJson, safety_backup: backupJson.nullable(), site: siteJson.optional(), operation: operationJson })),
          },
          402: { description: 'PAYMENT_REQUIRED: `new_site` and the plan allows no other site (`details.limit`)', schema: errorEnvelope },
          403: forbidden,
          404: notFound,
          409: {
            description: "CONFLICT: the backup did not succeed or expired, the target is not active, or it is on another node; or the new site's slug is taken",
            schema: errorEnvelope,
          },
        },
      },
      async (req, res) => {
        const body = parseOrFail(restoreBackupBody, req.body ?? {});
        const principal = principalOf(res);
        const [siteId, kind] = siteAndKind(req);
        if (body.new_site) {
          if (!principalHolds(principal, 'sites:create')) throw PermissionDenied.missing('sites:create');
          const made = await restoreBackupToNewSite(
            ctx,
            { secretKey: ctx.config.secrets.secretKey, baseDomain: ctx.config.sites.baseDomain },
            { teamId: principal.team_id, userId: principal.user_id },
            { siteId, kind, backupId: String(req.params.backup) },
            body.new_site,
          );
          const states = await backupStates(ctx.db, [made.backup]);
          await sendAccepted(ctx, req, res, made.operation, {
            backup: backupView(made.backup, states.get(made.backup.id)!),
            safety_backup: null,
            site: siteView(made.site, [made.environment]),
          });
          return;
        }
        const { backup, safety, operation } = await restoreBackup(
          ctx,
          { teamId: principal.team_id, userId: principal.user_id },
          siteId,
          kind,
          String(req.params.backup),
          body.target ?? kind,
        );
        const states = await backupStates(ctx.db, [backup]);
        await sendAccepted(ctx, req, res, operation, {
          backup: backupView(backup, states.get(backup.id)!),
          safety_backup: backupView(safety, { status: safety.status, error: null }),
        });
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: `${base}/:backup/download`,
        params: { ...environmentParams, backup: uuid('backup') },
        operationId: 'backups.download',
        summary: 'Download a backup as a .tar.zst',
        description:
          'The node reads the snapshot and streams it through the control plane as it is read (never held whole anywhere); the answer ' +
          "starts once the node's first bytes arrive. Each call streams the backup anew.",
        permission: 'backups:read',
        responses: {
          ...downloadResponses,
          403: forbidden,
          404: notFound,
          409: { description: 'CONFLICT: the backup did not succeed (still being made, failed) or expired', schema: errorEnvelope },
        },
      },
      async (req, res) => downloadBackup(ctx, req, res),
    );
}
