import { Router, type RequestHandler } from 'express';
import type { z } from 'zod';
import type { PathParameter } from './path-parameters.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export type ResponseDoc = {
  description: string;
  /** A JSON answer's shape. */
  schema?: z.ZodType;
  /** A binary answer (a file): its media type, instead of `schema`. */
  binary?: string;
  /**
   * A Server-Sent Events answer (`text/event-stream`), instead of `schema`: the schema of one event
   * (written as `x-item-schema`, what OpenAPI 3.2 calls `itemSchema`); the body itself is a string.
   */
  eventStream?: { description: string; event: z.ZodType };
  /** Headers the route itself sets on this answer, beside the surface's. */
  headers?: Record<string, { description: string; schema: Record<string, unknown> }>;
};

/** Everything the OpenAPI document says about one route, declared where the route is. */
export type RouteDoc = {
  method: HttpMethod;
  path: string;
  /**
   * Stable and unique in the document: `<resource>.<verb>` (`sites.create`, `backups.restore`), the
   * name the SDKs give the call. Renaming one breaks clients, so it is an API change.
   */
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  body?: z.ZodType;
  /** The JSON body may be left out (its fields are all optional). */
  bodyOptional?: boolean;
  /** A body that is a file rather than JSON: the media types it may be sent as (documented as binary). */
  rawBody?: { mediaTypes: string[]; description: string };
  /**
   * Each `:name` of the path, as clients should send it (api/openapi/path-parameters.ts). Every
   * path parameter is declared: the document is built from these and refuses a route without.
   */
  params?: Record<string, PathParameter>;
  /** The query string's parameters, one per property. */
  query?: z.ZodObject;
  responses: Record<number, ResponseDoc>;
  /** Which credentials the route needs; none when absent. */
  security?: Array<'sessionCookie' | 'refreshCookie' | 'bearerAuth' | 'agentToken'>;
  csrf?: boolean;
  rateLimited?: boolean;
  /**
   * The permission the route checks (`<resource>:<action>`). The router enforces it with its
   * permission guard, so a route cannot declare a check it does not make, nor make one it does not declare.
   */
  permission?: string;
  /**
   * Operators only (staff above teams; the fleet). Enforced by the router's guard like `permission`:
   * on /v1 anyone else is answered as if the route did not exist (404).
   */
  operator?: boolean;
  /**
   * What the team's audit trail (`GET /v1/activity`) records when this route changes something:
   * `action` like `member.role_changed`, `target` the type of the thing acted on (`member`, `team`).
   * The target's id is the route's `:id`-style parameter named by `targetParam` (default the last
   * path parameter), else the `data.id` of the answer. Every unsafe /v1 route declares it.
   */
  audit?: { action: string; target: string; targetParam?: string };
};

/** A route with everything it runs, as `DocumentedRouter.route` registered it. */
export type RegisteredRoute = { method: HttpMethod; path: string; handlers: RequestHandler[] };

/** Builds the middleware that enforces a route's declared permission and operator flag; runs before the route's handlers. */
export type PermissionGuard = (doc: RouteDoc) => RequestHandler;

/**
 * An Express router whose routes can only be added together with their documentation, so the
 * OpenAPI document is generated from the same declarations the app runs and cannot drift.
 */
export class DocumentedRouter {
  readonly router = Router();
  readonly docs: RouteDoc[] = [];
  /** Every route as registered on `router`, in order, included ones too (for api/openapi/route-index.ts). */
  readonly routes: RegisteredRoute[] = [];
  private readonly permissionGuard: PermissionGuard | undefined;

  /** `permissionGuard` is required by any route that declares a `permission`. */
  constructor(options: { permissionGuard?: PermissionGuard } = {}) {
    this.permissionGuard = options.permissionGuard;
  }

  route(doc: RouteDoc, ...handlers: RequestHandler[]): this {
    const { permission } = doc;
    const guard: RequestHandler[] = [];
    if (permission !== undefined || doc.operator) {
      // Refused at boot: a declared but unenforced permission would be a hole the catalogue hides.
      if (!this.permissionGuard)
        throw new Error(`${doc.method.toUpperCase()} ${doc.path} declares permission "${permission ?? 'operator'}" but its router has no permission guard`);
      guard.push(this.permissionGuard(doc));
    }
    this.docs.push(doc);
    // First, before the guard, so what reads the doc at answer time (the audit trail) sees denied
    // attempts too. The params are kept because Express restores req.params when an error leaves the router.
    const describe: RequestHandler = (req, res, next) => {
      res.locals.routeDoc = doc;
      res.locals.routeParams = req.params;
      next();
    };
    this.router[doc.method](doc.path, describe, ...guard, ...handlers);
    this.routes.push({ method: doc.method, path: doc.path, handlers: [describe, ...guard, ...handlers] });
    return this;
  }

  /** Adds another documented router's routes under this one. */
  include(other: DocumentedRouter): this {
    this.docs.push(...other.docs);
    this.routes.push(...other.routes);
    this.router.use(other.router);
    return this;
  }
}
