import type { Request } from 'express';
import { z } from 'zod';
import type { Context } from '../../shared/context.ts';
import {
  addEnvironment,
  changePhpVersion,
  deleteEnvironment,
  findEnvironment,
  listEnvironments,
  pushEnvironment,
  restartEnvironment,
} from '../../shared/domains/sites/environments.ts';
import { ValidationFailed } from '../../shared/errors.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { v1Router } from '../v1/authorize.ts';
import { dataEnvelope, errorEnvelope, listEnvelope, pageQuery, sendData, sendList } from '../v1/envelope.ts';
import { createEnvironmentBody, pushEnvironmentBody, updateEnvironmentBody } from './environments.schemas.ts';
import { sendAccepted, operationJson } from '../operations/operations.schemas.ts';
import { principalOf } from '../v1/principal.ts';
import { environmentJson, environmentView } from './sites.schemas.ts';
import { pathIdOf } from '../v1/team-scope.ts';
import { environmentParams, rowId } from '../openapi/path-parameters.ts';

const common = { tags: ['environments'], security: ['bearerAuth', 'sessionCookie'] as Array<'bearerAuth' | 'sessionCookie'> };
const forbidden = { description: 'AUTHORIZATION_ERROR: `details.permission` is missing', schema: errorEnvelope };
const notFound = { description: "NOT_FOUND: no such site in the caller's team, or it has no such environment", schema: errorEnvelope };
const accepted = (what: string) => ({
  description: `Accepted: the environment and the operation ${what} (also at \`Location\`)`,
  schema: dataEnvelope(z.object({ environment: environmentJson, operation: operationJson })),
});
const audit = (action: string) => ({ action, target: 'site', targetParam: 'id' });

/** `{env}` in a path is the environment's kind: production, staging or development. */
function siteAndKind(req: Request): [number, string] {
  return [pathIdOf(req, 'id', 'Site'), String(req.params.env)];
}

/**
 * A site's environments (issue 6): production comes with the site; staging and development are
 * copies made on demand. Every change is an operation on the environment, and operations on one
 * environment run one at a time, oldest first.
 */
export function environmentsRoutes(ctx: Context) {
  const settings = { secretKey: ctx.config.secrets.secretKey, baseDomain: ctx.config.sites.baseDomain };
  const actorOf = (res: Parameters<typeof principalOf>[0]) => {
    const principal = principalOf(res);
    return { teamId: principal.team_id, userId: principal.user_id };
  };
  return v1Router()
    .route(
      {
        ...common,
        method: 'get',
        path: '/sites/:id/environments',
        params: { id: rowId('site') },
        operationId: 'environments.list',
        summary: "The site's environments",
        permission: 'sites:read',
        query: pageQuery,
        responses: {
          200: { description: 'Production first, then the others in the order they were made', schema: listEnvelope(environmentJson) },
          403: forbidden,
          404: notFound,
        },
      },
      async (req, res) => {
        const query = parseOrFail(pageQuery, req.query);
        const environments = await listEnvironments(ctx.db, principalOf(res).team_id, pathIdOf(req, 'id', 'Site'));
        const page = environments.slice((query.page - 1) * query.page_size, query.page * query.page_size);
        sendList(req, res, page.map(environmentView), { page: query.page, pageSize: query.page_size }, environments.length);
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: '/sites/:id/environments',
        params: { id: rowId('site') },
        operationId: 'environments.create',
        summary: 'Add a staging or development environment',
        description:
          'A copy of another environment of the site (`source`, production unless told) on the same node, at `<kind>-<slug>.<base domain>`: ' +
          "its own database, files and container, the source's files and database copied in and every mention of the source's address " +
          'rewritten (PHP-serialized data kept valid). Each environment reserves disk from the plan (402 when none is left). ' +
          'It is password-protected at the edge (HTTP basic auth, user name = its kind, a generated password shown once in this answer).',
        body: createEnvironmentBody,
        permission: 'sites:update',
        audit: audit('environment.created'),
        responses: {
          202: {
            description:
              'Accepted: the environment, the operation building it (also at `Location`), and the basic-auth credentials it is protected with at the edge. ' +
              'The password is shown only here (a replay of the request with its Idempotency-Key answers `password: null`); change or remove it with PUT …/password-protection.',
            schema: dataEnvelope(
              z.object({
                environment: environmentJson,
                operation: operationJson,
                password_protection: z.object({ username: z.string(), password: z.string().nullable() }),
              }),
            ),
          },
          402: { description: 'PAYMENT_REQUIRED: no plan, or no disk left in it (`details.limit`)', schema: errorEnvelope },
          403: forbidden,
          404: notFound,
          409: {
            description: 'CONFLICT: the site has that environment already, the source is not active, or the site is being deleted',
            schema: errorEnvelope,
          },
        },
      },
      async (req, res) => {
        const body = parseOrFail(createEnvironmentBody, req.body);
        const { environment, operation, credentials } = await addEnvironment(ctx, settings, actorOf(res), pathIdOf(req, 'id', 'Site'), {
          kind: body.kind,
          sourceKind: body.source,
        });
        res.locals.idempotencyRedact = (answer: { data: { password_protection: object } }) => ({
          ...answer,
          data: { ...answer.data, password_protection: { ...answer.data.password_protection, password: null } },
        });
        await sendAccepted(ctx, req, res, operation, { environment: environmentView(environment), password_protection: credentials });
      },
    )
    .route(
      {
        ...common,
        method: 'get',
        path: '/sites/:id/environments/:env',
        params: environmentParams,
        operationId: 'environments.get',
        summary: 'One environment',
        permission: 'sites:read',
        responses: { 200: { description: 'The environment', schema: dataEnvelope(environmentJson) }, 403: forbidden, 404: notFound },
      },
      async (req, res) => {
        const { environment } = await findEnvironment(ctx.db, principalOf(res).team_id, ...siteAndKind(req));
        sendData(req, res, environmentView(environment));
      },
    )
    .route(
      {
        ...common,
        method: 'patch',
        path: '/sites/:id/environments/:env',
        params: environmentParams,
        operationId: 'environments.update',
        summary: "Change an environment's PHP version",
        description:
          "Answers 202 with an `environment.php_change` operation: the container is recreated from that version's image; files and database stay. `php_version` changes when the new container runs.",
        body: updateEnvironmentBody,
        permission: 'sites:update',
        audit: audit('environment.php_changed'),
        responses: {
          202: accepted('changing it'),
          403: forbidden,
          404: notFound,
          409: { description: 'CONFLICT: it runs that version already, or it (or its site) is being deleted', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const body = parseOrFail(updateEnvironmentBody, req.body);
        if (!ctx.config.sites.phpVersions.includes(body.php_version))
          throw ValidationFailed.field('php_version', `must be one of ${ctx.config.sites.phpVersions.join(', ')}`);
        const { environment, operation } = await changePhpVersion(ctx, actorOf(res), ...siteAndKind(req), body.php_version);
        await sendAccepted(ctx, req, res, operation, { environment: environmentView(environment) });
      },
    )
    .route(
      {
        ...common,
        method: 'delete',
        path: '/sites/:id/environments/:env',
        params: environmentParams,
        operationId: 'environments.delete',
        summary: 'Delete a staging or development environment',
        description:
          'Marks it `deleting` and answers 202 with the `environment.delete` operation: its edge route, container, database and user, and files go from the node, then its row. Production goes with its site (409).',
        permission: 'sites:delete',
        audit: audit('environment.deleted'),
        responses: {
          202: accepted('removing it'),
          403: forbidden,
          404: notFound,
          409: { description: 'CONFLICT: production, or already being deleted', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const { environment, operation } = await deleteEnvironment(ctx, actorOf(res), ...siteAndKind(req));
        await sendAccepted(ctx, req, res, operation, { environment: environmentView(environment) });
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: '/sites/:id/environments/:env/push',
        params: environmentParams,
        operationId: 'environments.push',
        summary: 'Push an environment onto another',
        description:
          "Copies this environment's files and/or database onto `target` (staging to production, say), on the same node, and answers 202 " +
          'with the `environment.push` operation on the target. Files are mirrored in place (the target keeps its own wp-config.php); the ' +
          "database replaces the target's in one atomic swap, then the source's address is rewritten to the target's, PHP-serialized data " +
          "kept valid. The push waits for operations running on either environment. A push onto production backs production up first (a `pre_push` backup, made by the operation's first steps and kept by the plan's retention), so the push can be undone by restoring it; a push onto staging or development takes no backup.",
        body: pushEnvironmentBody,
        permission: 'sites:push',
        audit: audit('environment.pushed'),
        responses: {
          202: {
            description: 'Accepted: the target environment and the operation copying onto it (also at `Location`)',
            schema: dataEnvelope(z.object({ environment: environmentJson, operation: operationJson })),
          },
          403: forbidden,
          404: notFound,
          409: { description: 'CONFLICT: the source is not active, either is being deleted, or they are on different nodes', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const body = parseOrFail(pushEnvironmentBody, req.body);
        const [siteId, kind] = siteAndKind(req);
        const { target, operation } = await pushEnvironment(ctx, actorOf(res), siteId, kind, {
          targetKind: body.target,
          files: body.files,
          database: body.database,
        });
        await sendAccepted(ctx, req, res, operation, { environment: environmentView(target) });
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: '/sites/:id/environments/:env/restart',
        params: environmentParams,
        operationId: 'environments.restart',
        summary: "Restart an environment's container",
        description: 'Answers 202 with an `environment.restart` operation: PHP-FPM starts afresh (its opcache emptied), then the front page is checked.',
        permission: 'sites:update',
        audit: audit('environment.restarted'),
        responses: {
          202: accepted('restarting it'),
          403: forbidden,
          404: notFound,
          409: { description: 'CONFLICT: it (or its site) is being deleted', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const { environment, operation } = await restartEnvironment(ctx, actorOf(res), ...siteAndKind(req));
        await sendAccepted(ctx, req, res, operation, { environment: environmentView(environment) });
      },
    );
}
