import type { Request, Response } from 'express';
import type { Context } from '../../shared/context.ts';
import { createSchedule, deleteSchedule, findSchedule, listSchedules, updateSchedule } from '../../shared/domains/backups/schedules.ts';
import { findEnvironment } from '../../shared/domains/sites/environments.ts';
import { ValidationFailed } from '../../shared/errors.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { v1Router } from '../v1/authorize.ts';
import {
  backupScheduleJson,
  backupScheduleView,
  backupSchedulesDescription,
  createBackupScheduleBody,
  updateBackupScheduleBody,
} from './backup-schedules.schemas.ts';
import { dataEnvelope, errorEnvelope, listEnvelope, pageQuery, sendData, sendList } from '../v1/envelope.ts';
import { principalOf } from '../v1/principal.ts';
import { pathIdOf } from '../v1/team-scope.ts';
import { environmentParams, rowId } from '../openapi/path-parameters.ts';

const common = { tags: ['backups'], security: ['bearerAuth', 'sessionCookie'] as Array<'bearerAuth' | 'sessionCookie'> };
const forbidden = { description: 'AUTHORIZATION_ERROR: `details.permission` is missing', schema: errorEnvelope };
const notFound = { description: "NOT_FOUND: no such site in the caller's team, no such environment, or no such schedule of it", schema: errorEnvelope };
const invalid = {
  description: 'VALIDATION_ERROR: `details.fields` names `cron` (not 5 fields, invalid, or more often than hourly) and/or `timezone` (not an IANA zone)',
  schema: errorEnvelope,
};
const base = '/sites/:id/environments/:env/backup-schedules';
const audit = (action: string) => ({ action, target: 'backup_schedule', targetParam: 'schedule' });

/**
 * When an environment is backed up on its own (issue 12): cron schedules in a time zone, fired by
 * the workers' scheduler tick (workers/backups/schedule-tick.processor.ts).
 */
export function backupSchedulesRoutes(ctx: Context) {
  /** The caller's environment named by the path: another team's site answers 404. */
  const environmentOf = async (req: Request, res: Response) =>
    (await findEnvironment(ctx.db, principalOf(res).team_id, pathIdOf(req, 'id', 'Site'), String(req.params.env))).environment;
  const scheduleIdOf = (req: Request) => pathIdOf(req, 'schedule', 'Backup schedule');

  return v1Router()
    .route(
      {
        ...common,
        method: 'get',
        path: base,
        params: environmentParams,
        operationId: 'backupSchedules.list',
        summary: "The environment's backup schedules",
        description: backupSchedulesDescription,
        permission: 'backups:read',
        query: pageQuery,
        responses: { 200: { description: 'Oldest first', schema: listEnvelope(backupScheduleJson) }, 403: forbidden, 404: notFound },
      },
      async (req, res) => {
        const query = parseOrFail(pageQuery, req.query);
        const { rows, total } = await listSchedules(ctx.db, await environmentOf(req, res), { page: query.page, pageSize: query.page_size });
        sendList(req, res, rows.map(backupScheduleView), { page: query.page, pageSize: query.page_size }, total);
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: base,
        params: environmentParams,
        operationId: 'backupSchedules.create',
        summary: 'Back the environment up on a schedule',
        description: `${backupSchedulesDescription} Its first slot is the next one after now.`,
        body: createBackupScheduleBody,
        permission: 'backups:update',
        audit: audit('backup_schedule.created'),
        responses: {
          201: { description: 'The schedule, with its first `next_run_at`', schema: dataEnvelope(backupScheduleJson) },
          403: forbidden,
          404: notFound,
          409: { description: 'CONFLICT: the environment has its most schedules already, or is being deleted', schema: errorEnvelope },
          422: invalid,
        },
      },
      async (req, res) => {
        const body = parseOrFail(createBackupScheduleBody, req.body);
        const schedule = await createSchedule(ctx.db, await environmentOf(req, res), body);
        res.setHeader('Location', `${req.baseUrl}${req.path}/${schedule.id}`);
        sendData(req, res, backupScheduleView(schedule), 201);
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: `${base}/:schedule`,
        params: { ...environmentParams, schedule: rowId('backup schedule') },
        operationId: 'backupSchedules.get',
        summary: 'One backup schedule',
        permission: 'backups:read',
        responses: { 200: { description: 'The schedule', schema: dataEnvelope(backupScheduleJson) }, 403: forbidden, 404: notFound },
      },
      async (req, res) => {
        sendData(req, res, backupScheduleView(await findSchedule(ctx.db, await environmentOf(req, res), scheduleIdOf(req))));
      },
    )
    .route(
      {
        ...common,
        method: 'patch',
        path: `${base}/:schedule`,
        params: { ...environmentParams, schedule: rowId('backup schedule') },
        operationId: 'backupSchedules.update',
        summary: 'Change or pause a backup schedule',
        description: 'A new `cron` or `timezone`, or enabling it again, moves `next_run_at` to the next slot after now; disabling keeps the row.',
        body: updateBackupScheduleBody,
        permission: 'backups:update',
        audit: audit('backup_schedule.updated'),
        responses: { 200: { description: 'The schedule as changed', schema: dataEnvelope(backupScheduleJson) }, 403: forbidden, 404: notFound, 422: invalid },
      },
      async (req, res) => {
        const body = parseOrFail(updateBackupScheduleBody, req.body);
        if (body.cron === undefined && body.timezone === undefined && body.enabled === undefined)
          throw ValidationFailed.field('cron', 'name at least one of cron, timezone, enabled');
        const environment = await environmentOf(req, res);
        sendData(req, res, backupScheduleView(await updateSchedule(ctx.db, environment, scheduleIdOf(req), body)));
      },
    )
    .route(
      {
        ...common,
        method: 'delete',
        path: `${base}/:schedule`,
        params: { ...environmentParams, schedule: rowId('backup schedule') },
        operationId: 'backupSchedules.delete',
        summary: 'Delete a backup schedule',
        description: "The backups it made stay (their `schedule_id` becomes null) and follow the plan's retention.",
        permission: 'backups:update',
        audit: audit('backup_schedule.deleted'),
        responses: { 200: { description: 'The schedule deleted', schema: dataEnvelope(backupScheduleJson) }, 403: forbidden, 404: notFound },
      },
      async (req, res) => {
        const environment = await environmentOf(req, res);
        sendData(req, res, backupScheduleView(await deleteSchedule(ctx.db, environment, scheduleIdOf(req))));
      },
    );
}
