import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Context } from '../../shared/context.ts';
import { changeWordpress } from '../../shared/domains/sites/environments.ts';
import { isReadOnlyWpCliCommand, parseWpCliCommand, WpCliCommandRefused } from '../../shared/domains/wordpress/wp-cli-command.ts';
import { ValidationFailed } from '../../shared/errors.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { environmentParams } from '../openapi/path-parameters.ts';
import { operationJson, sendAccepted } from '../operations/operations.schemas.ts';
import { environmentJson, environmentView } from '../sites/sites.schemas.ts';
import { v1Router } from '../v1/authorize.ts';
import { dataEnvelope, errorEnvelope } from '../v1/envelope.ts';
import { principalOf } from '../v1/principal.ts';
import { pathIdOf } from '../v1/team-scope.ts';
import { searchReplaceBody, wpCliBody } from './wp-cli.schemas.ts';

const common = { tags: ['wordpress'], security: ['bearerAuth', 'sessionCookie'] as Array<'bearerAuth' | 'sessionCookie'> };
const base = '/sites/:id/environments/:env';
const accepted = (kind: string) => ({
  description: `Accepted: the environment and the \`${kind}\` operation (also at \`Location\`)`,
  schema: dataEnvelope(z.object({ environment: environmentJson, operation: operationJson })),
});
const errors = {
  403: { description: 'AUTHORIZATION_ERROR: `details.permission` is missing', schema: errorEnvelope },
  404: { description: "NOT_FOUND: no such site in the caller's team, or it has no such environment", schema: errorEnvelope },
  409: { description: 'CONFLICT: the environment (or its site) is being deleted', schema: errorEnvelope },
};

/**
 * WP-CLI in an environment and a standalone search-replace (issue 23), each an operation run in the
 * environment's container as its site user. Refused commands never become operations.
 */
export function wpCliRoutes(ctx: Context) {
  const actorOf = (res: Response) => ({ teamId: principalOf(res).team_id, userId: principalOf(res).user_id });
  const start = async <K extends 'wordpress.cli' | 'wordpress.search_replace'>(
    req: Request,
    res: Response,
    change: Parameters<typeof changeWordpress<K>>[4],
  ) => {
    const { environment, operation } = await changeWordpress(ctx, actorOf(res), pathIdOf(req, 'id', 'Site'), String(req.params.env), change);
    await sendAccepted(ctx, req, res, operation, { environment: environmentView(environment) });
  };

  return v1Router()
    .route(
      {
        ...common,
        method: 'post',
        path: `${base}/wp-cli`,
        params: environmentParams,
        operationId: 'wordpress.cli',
        summary: 'Run a WP-CLI command',
        description:
          "Answers 202 with a `wordpress.cli` operation: the command runs in the environment's container as its site user (a real `wp` if the image has one, else Berth's subset: " +
          '`plugin list|activate|deactivate`, `theme list|activate`, `option get|update`, `user list`, `cache flush`, `core version`, `search-replace`). Its output goes into the ' +
          "operation's log (the first 400 lines / 1 MiB), its exit code into the result; a non-zero exit fails step `run`. Commands that may change something end with `inventory` (read again) and `purge_cache`. " +
          'Commands that drop or dump the database, write wp-config.php, replace WordPress, run arbitrary PHP or leave the environment are refused (docs/wp-cli.md).',
        body: wpCliBody,
        permission: 'wordpress:cli',
        audit: { action: 'wordpress.cli_run', target: 'site', targetParam: 'id' },
        responses: {
          202: accepted('wordpress.cli'),
          ...errors,
          422: { description: 'VALIDATION_ERROR: an empty or refused command, or one outside the subset; `details` names why', schema: errorEnvelope },
        },
      },
      async (req, res) => {
        const body = parseOrFail(wpCliBody, req.body);
        let argv: string[];
        try {
          argv = parseWpCliCommand(body.command);
        } catch (error) {
          if (error instanceof WpCliCommandRefused) throw ValidationFailed.field('command', error.message);
          throw error;
        }
        const input = { argv, timeout_seconds: body.timeout_seconds, read_only: isReadOnlyWpCliCommand(argv) };
        await start(req, res, { kind: 'wordpress.cli', input: (ids) => ({ ...ids, ...input }) });
      },
    )
    .route(
      {
        ...common,
        method: 'post',
        path: `${base}/search-replace`,
        params: environmentParams,
        operationId: 'wordpress.searchReplace',
        summary: 'Search and replace in the database',
        description:
          "Answers 202 with a `wordpress.search_replace` operation: every text column of the site's tables (or `tables`), PHP-serialized values kept valid, counted per table in the result " +
          'and the log. A dry run (the default) changes nothing; a real one ends with `purge_cache`.',
        body: searchReplaceBody,
        permission: 'wordpress:search_replace',
        audit: { action: 'wordpress.search_replaced', target: 'site', targetParam: 'id' },
        responses: { 202: accepted('wordpress.search_replace'), ...errors, 422: { description: 'VALIDATION_ERROR: a bad body', schema: errorEnvelope } },
      },
      async (req, res) => {
        const body = parseOrFail(searchReplaceBody, req.body);
        await start(req, res, {
          kind: 'wordpress.search_replace',
          input: (ids) => ({ ...ids, search: body.search, replace: body.replace, dry_run: body.dry_run, ...(body.tables ? { tables: body.tables } : {}) }),
        });
      },
    );
}
