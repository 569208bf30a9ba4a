import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Context } from '../../shared/context.ts';
import { changeWordpress, findEnvironment } from '../../shared/domains/sites/environments.ts';
import { findUpload } from '../../shared/domains/uploads/uploads.ts';
import { refuseActiveTheme, requireListed } from '../../shared/domains/wordpress/inventory-checks.ts';
import type { PackageChangeKind, PackageInstallKind, WordpressSubject } from '../../shared/domains/wordpress/wordpress.operations.ts';
import { NotFound, ValidationFailed } from '../../shared/errors.ts';
import { parseOrFail } from '../middleware/validate.ts';
import type { RouteDoc } from '../openapi/documented-router.ts';
import { v1Router } from '../v1/authorize.ts';
import { dataEnvelope, errorEnvelope, listEnvelope, pageQuery, sendData, sendList } from '../v1/envelope.ts';
import { sendAccepted, operationJson } from '../operations/operations.schemas.ts';
import { principalOf } from '../v1/principal.ts';
import { environmentJson, environmentView } from '../sites/sites.schemas.ts';
import { pathIdOf } from '../v1/team-scope.ts';
import { installPackageBody, pluginJson, themeJson, wordpressJson, wordpressView } from './wordpress.schemas.ts';
import { environmentParams, name } from '../openapi/path-parameters.ts';

const common = { tags: ['wordpress'], security: ['bearerAuth', 'sessionCookie'] as Array<'bearerAuth' | 'sessionCookie'> };
const base = '/sites/:id/environments/:env';
const forbidden = { description: 'AUTHORIZATION_ERROR: `details.permission` is missing', schema: errorEnvelope };
const notFound = {
  description: "NOT_FOUND: no such site in the caller's team, no such environment, or (by the last inventory) no such plugin or theme",
  schema: errorEnvelope,
};
const accepted = {
  description: 'Accepted: the environment and the operation (also at `Location`)',
  schema: dataEnvelope(z.object({ environment: environmentJson, operation: operationJson })),
};
const conflict = {
  description: 'CONFLICT: the environment (or its site) is being deleted, or (themes) the active theme cannot be deleted',
  schema: errorEnvelope,
};

type Subject = WordpressSubject;

/**
 * WordPress on an environment (issue 6): what it runs, read from the last inventory a worker took
 * (so these reads never wait on a node), and its plugins and themes, each change an operation that
 * the PHP helper carries out in the environment's container and that ends with a fresh inventory.
 */
export function wordpressRoutes(ctx: Context) {
  const actorOf = (res: Response) => {
    const principal = principalOf(res);
    return { teamId: principal.team_id, userId: principal.user_id };
  };
  const locate = (req: Request, res: Response) => findEnvironment(ctx.db, principalOf(res).team_id, pathIdOf(req, 'id', 'Site'), String(req.params.env));

  async function start<K extends PackageInstallKind | PackageChangeKind | 'wordpress.refresh'>(
    req: Request,
    res: Response,
    change: Parameters<typeof changeWordpress<K>>[4],
  ): Promise<void> {
    const { environment, operation } = await changeWordpress(ctx, actorOf(res), pathIdOf(req, 'id', 'Site'), String(req.params.env), change);
    await sendAccepted(ctx, req, res, operation, { environment: environmentView(environment) });
  }

  /** The plugin or theme named in the path, as the last inventory knows it. */
  async function subjectOf(req: Request, res: Response, subject: Subject) {
    const name = String(req.params[subject]);
    const { environment } = await locate(req, res);
    requireListed(environment, subject, name);
    return { name, environment };
  }

  const lists = (subject: Subject) => ({
    ...common,
    method: 'get' as const,
    path: `${base}/${subject}s`,
    params: environmentParams,
    operationId: `${subject}s.list`,
    summary: `The environment's ${subject}s (last inventory)`,
    description: `As a worker last read them (after each operation on the environment); empty before the first. POST .../wordpress/refresh reads them again.`,
    permission: 'wordpress:read',
    query: pageQuery,
    responses: {
      200: { description: `One page of ${subject}s`, schema: listEnvelope(subject === 'plugin' ? pluginJson : themeJson) },
      403: forbidden,
      404: notFound,
    },
  });

  const installs = (subject: Subject, kind: PackageInstallKind): RouteDoc => ({
    ...common,
    method: 'post',
    path: `${base}/${subject}s`,
    params: environmentParams,
    operationId: `${subject}s.install`,
    summary: `Install a ${subject} from an uploaded zip`,
    description: `Answers 202 with a \`${kind}\` operation: the node fetches the upload (checked against its SHA-256), WordPress's own upgrader installs it (a zip without a ${subject} fails the operation), optionally activates it.`,
    body: installPackageBody,
    permission: 'wordpress:install',
    audit: { action: `wordpress.${subject}_installed`, target: 'site', targetParam: 'id' },
    responses: {
      202: accepted,
      403: forbidden,
      404: notFound,
      409: conflict,
      422: { description: 'VALIDATION_ERROR: a bad body, or `upload_id` names no upload of the team (expired ones included)', schema: errorEnvelope },
    },
  });

  const acts = (subject: Subject, verb: string, method: 'post' | 'delete', kind: PackageChangeKind, permission: string): RouteDoc => ({
    ...common,
    method,
    path: method === 'delete' ? `${base}/${subject}s/:${subject}` : `${base}/${subject}s/:${subject}/${verb}`,
    params: { ...environmentParams, [subject]: name(subject === 'plugin' ? "The plugin's `slug`" : "The theme's `theme` (its stylesheet)") },
    operationId: `${subject}s.${verb}`,
    summary: `${verb[0]!.toUpperCase()}${verb.slice(1)} a ${subject}`,
    description: `Answers 202 with a \`${kind}\` operation carried out by WordPress's own functions in the environment's container.${verb === 'delete' ? ` A ${subject} that is gone already is no failure.` : ''}`,
    permission,
    audit: { action: `wordpress.${subject}_${verb === 'delete' ? 'deleted' : `${verb}d`}`, target: 'site', targetParam: 'id' },
    responses: { 202: accepted, 403: forbidden, 404: notFound, 409: conflict },
  });

  /** One page of the plugins or themes of the last inventory (none before the first). */
  async function list(req: Request, res: Response, subject: Subject): Promise<void> {
    const query = parseOrFail(pageQuery, req.query);
    const { environment } = await locate(req, res);
    const all: unknown[] = (subject === 'plugin' ? environment.wordpress?.plugins : environment.wordpress?.themes) ?? [];
    sendList(
      req,
      res,
      all.slice((query.page - 1) * query.page_size, query.page * query.page_size),
      { page: query.page, pageSize: query.page_size },
      all.length,
    );
  }

  async function install(req: Request, res: Response, kind: PackageInstallKind): Promise<void> {
    const body = parseOrFail(installPackageBody, req.body);
    const upload = await findUpload(ctx.db, principalOf(res).team_id, body.upload_id).catch((error: unknown) => {
      if (error instanceof NotFound) throw ValidationFailed.field('upload_id', 'names no upload of your team (uploads last 24 hours)');
      throw error;
    });
    const input = {
      upload_id: upload.id,
      filename: upload.filename,
      sha256: upload.sha256,
      size_bytes: Number(upload.size_bytes),
      activate: body.activate,
      overwrite: body.overwrite,
    };
    await start(req, res, { kind, input: (ids) => ({ ...ids, ...input }) });
  }

  async function act(req: Request, res: Response, subject: Subject, kind: PackageChangeKind, refuse?: typeof refuseActiveTheme): Promise<void> {
    const { name, environment } = await subjectOf(req, res, subject);
    refuse?.(environment, name);
    await start(req, res, { kind, input: (ids) => (subject === 'plugin' ? { ...ids, plugin: name } : { ...ids, theme: name }) });
  }

  return v1Router()
    .route(
      {
        ...common,
        method: 'get',
        path: `${base}/wordpress`,
        params: environmentParams,
        operationId: 'wordpress.get',
        summary: 'What WordPress the environment runs',
        description:
          'Core, PHP and MySQL versions, address, title, locale, plugins and themes, as a worker last read them (after each operation on the environment). `data` is null before the first reading.',
        permission: 'wordpress:read',
        responses: { 200: { description: 'The last inventory', schema: dataEnvelope(wordpressJson.nullable()) }, 403: forbidden, 404: notFound },
      },
      async (req, res) => {
        const { environment } = await locate(req, res);
        sendData(req, res, wordpressView(environment));
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: `${base}/wordpress/refresh`,
        params: environmentParams,
        operationId: 'wordpress.refresh',
        summary: 'Read what WordPress runs again',
        description: 'Answers 202 with a `wordpress.refresh` operation, for changes made outside Berth (wp-admin, SFTP).',
        permission: 'wordpress:update',
        audit: { action: 'wordpress.refreshed', target: 'site', targetParam: 'id' },
        responses: { 202: accepted, 403: forbidden, 404: notFound, 409: conflict },
      },
      (req, res) => start(req, res, { kind: 'wordpress.refresh', input: (ids) => ids }),
    )
    .route(lists('plugin'), (req, res) => list(req, res, 'plugin'))
    .route(installs('plugin', 'wordpress.plugin_install'), (req, res) => install(req, res, 'wordpress.plugin_install'))
    .route(acts('plugin', 'activate', 'post', 'wordpress.plugin_activate', 'wordpress:update'), (req, res) =>
      act(req, res, 'plugin', 'wordpress.plugin_activate'),
    )
    .route(acts('plugin', 'deactivate', 'post', 'wordpress.plugin_deactivate', 'wordpress:update'), (req, res) =>
      act(req, res, 'plugin', 'wordpress.plugin_deactivate'),
    )
    .route(acts('plugin', 'delete', 'delete', 'wordpress.plugin_delete', 'wordpress:delete'), (req, res) => act(req, res, 'plugin', 'wordpress.plugin_delete'))
    .route(lists('theme'), (req, res) => list(req, res, 'theme'))
    .route(installs('theme', 'wordpress.theme_install'), (req, res) => install(req, res, 'wordpress.theme_install'))
    .route(acts('theme', 'activate', 'post', 'wordpress.theme_activate', 'wordpress:update'), (req, res) => act(req, res, 'theme', 'wordpress.theme_activate'))
    .route(acts('theme', 'delete', 'delete', 'wordpress.theme_delete', 'wordpress:delete'), (req, res) =>
      act(req, res, 'theme', 'wordpress.theme_delete', refuseActiveTheme),
    );
}
