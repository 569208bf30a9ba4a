import type { NextFunction, Request, Response } from 'express';
import type { Context } from '../../shared/context.ts';
import { recordActivity, type NewActivity } from '../../shared/domains/activity/record-activity.ts';
import { requestOrigin } from '../middleware/request-origin.ts';
import type { RouteDoc } from '../openapi/documented-router.ts';
import type { Principal } from './principal.ts';

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The audit trail of /v1: every unsafe request that reached a route declaring `audit` and has a
 * caller is recorded with the status it was answered, denied attempts (403) included. The entry is
 * written before the answer leaves (res.end waits for it), so a client that reads /v1/activity right
 * after sees it; a failed insert is logged and the answer goes out unchanged.
 *
 * Not recorded: requests without a caller (401; no team to attribute them to), and requests answered
 * before routing (rate limited, unreadable body, Idempotency-Key replays and conflicts, unknown
 * paths): they reach no route, so they change nothing. Bodies are never recorded, only the method,
 * the path and, for errors, the error code and the missing permission.
 */
export function auditTrail(ctx: Pick<Context, 'db'>) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!unsafeMethods.has(req.method)) return next();

    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      res.locals.answerBody = body;
      return json(body);
    };

    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    let recorded = false;
    res.end = ((...args: unknown[]) => {
      const entry = recorded ? null : entryOf(req, res);
      recorded = true;
      if (!entry) return end(...args);
      recordActivity(ctx.db, entry)
        .catch((error: unknown) => req.log.error({ err: (error as Error).message, action: entry.action }, 'activity entry not recorded'))
        .finally(() => {
          try {
            end(...args);
          } catch (error) {
            req.log.error({ err: error }, 'answer could not be sent');
          }
        });
      return res;
    }) as Response['end'];
    next();
  };
}

function entryOf(req: Request, res: Response): (NewActivity & { teamId: number }) | null {
  const doc = res.locals.routeDoc as RouteDoc | undefined;
  const principal = res.locals.principal as Principal | undefined;
  if (!doc?.audit || !principal) return null;
  const status = res.statusCode;
  const body = res.locals.answerBody as { data?: { id?: unknown }; error?: { code?: unknown; details?: { permission?: unknown } } } | undefined;
  const error = status >= 400 && typeof body?.error?.code === 'string' ? body.error.code : undefined;
  const permission = typeof body?.error?.details?.permission === 'string' ? body.error.details.permission : undefined;
  return {
    teamId: principal.team_id,
    actor: { userId: principal.user_id, via: principal.via === 'api_token' ? 'api_token' : 'session', apiTokenId: principal.apiTokenId },
    action: doc.audit.action,
    target: { type: doc.audit.target, id: recordable(targetIdOf(doc, res.locals.routeParams as Record<string, string> | undefined, body), TARGET_ID_MAX) },
    status,
    origin: requestOrigin(req),
    metadata: {
      method: req.method,
      path: recordable(req.originalUrl.split('?')[0]!, PATH_MAX),
      ...(error ? { error } : {}),
      ...(permission ? { permission } : {}),
    },
  };
}

/** A refused attempt is recorded with the id and path it named, however hostile: bounded, NUL spelled out. */
const TARGET_ID_MAX = 200;
const PATH_MAX = 512;

/** Text from the request as the trail can store it: Postgres text cannot hold U+0000, and the entry stays small. */
export function recordable<Text extends string | null>(text: Text, max: number): Text {
  if (text === null) return text;
  const spelled = text.replaceAll('\u0000', '\\u0000');
  return (spelled.length > max ? `${spelled.slice(0, max - 1)}…` : spelled) as Text;
}

/** The route's `targetParam` (default its last path parameter), else the `data.id` of the answer. */
export function targetIdOf(doc: RouteDoc, params: Record<string, string> | undefined, body: { data?: { id?: unknown } } | undefined): string | null {
  const name = doc.audit?.targetParam ?? [...doc.path.matchAll(/:(\w+)/g)].at(-1)?.[1];
  const fromPath = name !== undefined ? params?.[name] : undefined;
  if (fromPath !== undefined) return fromPath;
  const fromAnswer = body?.data?.id;
  return typeof fromAnswer === 'string' || typeof fromAnswer === 'number' ? String(fromAnswer) : null;
}
