import { Router, type RequestHandler } from 'express';
import type { z } from 'zod';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export type ResponseDoc = { description: string; schema?: z.ZodType };

/** Everything the OpenAPI document says about one route, declared where the route is. */
export type RouteDoc = {
  method: HttpMethod;
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  body?: z.ZodType;
  /** The query string's parameters, one per property. */
  query?: z.ZodObject;
  responses: Record<number, ResponseDoc>;
  /** Which credentials the route needs; none when absent. */
  security?: Array<'sessionCookie' | 'refreshCookie' | 'bearerAuth'>;
  csrf?: boolean;
  rateLimited?: boolean;
};

/**
 * An Express router whose routes can only be added together with their documentation, so the
 * OpenAPI document is generated from the same declarations the app runs and cannot drift.
 */
export class DocumentedRouter {
  readonly router = Router();
  readonly docs: RouteDoc[] = [];

  route(doc: RouteDoc, ...handlers: RequestHandler[]): this {
    this.docs.push(doc);
    this.router[doc.method](doc.path, ...handlers);
    return this;
  }

  /** Adds another documented router's routes under this one. */
  include(other: DocumentedRouter): this {
    this.docs.push(...other.docs);
    this.router.use(other.router);
    return this;
  }
}
