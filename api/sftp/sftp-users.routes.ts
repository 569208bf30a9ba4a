import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Context } from '../../shared/context.ts';
import { createSftpUser, getSftpUser, listSftpUsers, revokeSftpUser, updateSftpUser } from '../../shared/domains/sftp/sftp-users.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { v1Router } from '../v1/authorize.ts';
import { dataEnvelope, errorEnvelope, sendData } from '../v1/envelope.ts';
import { sendAccepted, operationJson } from '../operations/operations.schemas.ts';
import { principalOf } from '../v1/principal.ts';
import { createSftpUserBody, sftpUserJson, sftpUsersDescription, sftpUserView, updateSftpUserBody } from './sftp-users.schemas.ts';
import { pathIdOf } from '../v1/team-scope.ts';
import { environmentParams, rowId } from '../openapi/path-parameters.ts';

const common = { tags: ['sftp'], security: ['bearerAuth', 'sessionCookie'] as Array<'bearerAuth' | 'sessionCookie'>, description: sftpUsersDescription };
const forbidden = { description: 'AUTHORIZATION_ERROR: `details.permission` is missing', schema: errorEnvelope };
const notFound = { description: "NOT_FOUND: no such site in the caller's team, no such environment, or no such SFTP user of it", schema: errorEnvelope };
/** A generated password is shown once: the Idempotency-Key replay (kept in Redis) answers without it. */
const withoutPassword = (body: { data: object }) => ({ ...body, data: { ...body.data, password: null } });

const invalid = {
  description: 'VALIDATION_ERROR: a bad username, a password outside the policy, a public key that does not parse or is too weak',
  schema: errorEnvelope,
};
const base = '/sites/:id/environments/:env/sftp-users';
const withPassword = dataEnvelope(
  z.object({
    sftp_user: sftpUserJson,
    password: z.string().nullable().describe('The generated password, shown this once; null when none was generated'),
    operation: operationJson,
  }),
);

/** SFTP users of environments (issue 14): pushed to the node by operations, revoked at once. */
export function sftpUsersRoutes(ctx: Context) {
  const actorOf = (res: Response) => ({ teamId: principalOf(res).team_id, userId: principalOf(res).user_id });
  /** 202 with the user and its operation; a generated password is shown here once, never kept for an Idempotency-Key replay. */
  const acceptWithPassword = async (req: Request, res: Response, made: Awaited<ReturnType<typeof createSftpUser>>) => {
    if (made.password !== null) res.locals.idempotencyRedact = withoutPassword;
    await sendAccepted(ctx, req, res, made.operation, { sftp_user: sftpUserView(made.user, made.connection), password: made.password });
  };
  const siteAndKind = (req: Request): [number, string] => [pathIdOf(req, 'id', 'Site'), String(req.params.env)];
  const userIdOf = (req: Request) => pathIdOf(req, 'user', 'SFTP user');

  return v1Router()
    .route(
      {
        ...common,
        method: 'get',
        path: base,
        params: environmentParams,
        operationId: 'sftpUsers.list',
        summary: "The environment's SFTP users",
        permission: 'sftp:read',
        responses: { 200: { description: 'Oldest first, revoked ones included', schema: dataEnvelope(z.array(sftpUserJson)) }, 403: forbidden, 404: notFound },
      },
      async (req, res) => {
        const [siteId, kind] = siteAndKind(req);
        const { users, connection } = await listSftpUsers(ctx.db, principalOf(res).team_id, siteId, kind);
        sendData(
          req,
          res,
          users.map((user) => sftpUserView(user, connection)),
        );
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: base,
        params: environmentParams,
        operationId: 'sftpUsers.create',
        summary: 'Create an SFTP user',
        body: createSftpUserBody,
        permission: 'sftp:create',
        audit: { action: 'sftp_user.created', target: 'site', targetParam: 'id' },
        responses: {
          202: {
            description: 'The user (`provisioning`), its connection details, the generated password if any, and the `sftp.provision` operation',
            schema: withPassword,
          },
          403: forbidden,
          404: notFound,
          409: { description: 'CONFLICT: the username is taken, the environment is not active, or it has its most SFTP users', schema: errorEnvelope },
          422: invalid,
        },
      },
      async (req, res) => {
        const body = parseOrFail(createSftpUserBody, req.body);
        const [siteId, kind] = siteAndKind(req);
        await acceptWithPassword(req, res, await createSftpUser(ctx, actorOf(res), siteId, kind, body));
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: `${base}/:user`,
        params: { ...environmentParams, user: rowId('SFTP user') },
        operationId: 'sftpUsers.get',
        summary: 'One SFTP user',
        permission: 'sftp:read',
        responses: { 200: { description: 'The user and its connection details', schema: dataEnvelope(sftpUserJson) }, 403: forbidden, 404: notFound },
      },
      async (req, res) => {
        const [siteId, kind] = siteAndKind(req);
        const { user, connection } = await getSftpUser(ctx.db, principalOf(res).team_id, siteId, kind, userIdOf(req));
        sendData(req, res, sftpUserView(user, connection));
      },
    )
    .route(
      {
        ...common,
        method: 'patch',
        path: `${base}/:user`,
        params: { ...environmentParams, user: rowId('SFTP user') },
        operationId: 'sftpUsers.update',
        summary: "Change an SFTP user's password or keys",
        body: updateSftpUserBody,
        permission: 'sftp:update',
        audit: { action: 'sftp_user.updated', target: 'site', targetParam: 'id' },
        responses: {
          202: {
            description: 'The user (`provisioning` until the node has the new credentials), the generated password if any, and the `sftp.update` operation',
            schema: withPassword,
          },
          403: forbidden,
          404: notFound,
          409: { description: 'CONFLICT: the user is revoked', schema: errorEnvelope },
          422: invalid,
        },
      },
      async (req, res) => {
        const body = parseOrFail(updateSftpUserBody, req.body);
        const [siteId, kind] = siteAndKind(req);
        await acceptWithPassword(req, res, await updateSftpUser(ctx, actorOf(res), siteId, kind, userIdOf(req), body));
      },
    )
    .route(
      {
        ...common,
        method: 'delete',
        path: `${base}/:user`,
        params: { ...environmentParams, user: rowId('SFTP user') },
        operationId: 'sftpUsers.delete',
        summary: 'Revoke an SFTP user',
        permission: 'sftp:delete',
        audit: { action: 'sftp_user.revoked', target: 'site', targetParam: 'id' },
        responses: {
          202: {
            description: 'Revoked now; the `sftp.revoke` operation reports when the node has closed its sessions',
            schema: dataEnvelope(z.object({ sftp_user: sftpUserJson, operation: operationJson })),
          },
          403: forbidden,
          404: notFound,
          409: { description: 'CONFLICT: revoked already', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const [siteId, kind] = siteAndKind(req);
        const { user, operation } = await revokeSftpUser(ctx, actorOf(res), siteId, kind, userIdOf(req));
        const { connection } = await getSftpUser(ctx.db, principalOf(res).team_id, siteId, kind, user.id);
        await sendAccepted(ctx, req, res, operation, { sftp_user: sftpUserView(user, connection) });
      },
    );
}
