import { Router, type RequestHandler } from 'express';
import type { DocumentedRouter, RegisteredRoute } from './documented-router.ts';

/**
 * The routes of `surface`, served through an index on the first path segment: a request walks only
 * the routes that can match it, not the whole surface (Express tries every layer in turn, and /v1
 * has about 180 routes in some 40 routers: walking them cost more than the rest of a small
 * request). Same routes, same order, same matching: each literal first segment (`/sites/...`) gets
 * a router of its routes plus every route whose first segment is a parameter, in registration
 * order; any other path goes to those parameter-first routes alone. Express matches paths
 * case-insensitively, so the index does too. Built on the first request, once every route is in.
 * `surface.router` itself stays as it was (the OpenAPI test reads it).
 */
export function indexedRoutes(surface: DocumentedRouter): RequestHandler {
  let index: { bySegment: Map<string, Router>; parameterFirst: Router } | undefined;
  return (req, res, next) => {
    index ??= buildIndex(surface.routes);
    const { path } = req;
    const end = path.indexOf('/', 1);
    const segment = (end < 0 ? path.slice(1) : path.slice(1, end)).toLowerCase();
    (index.bySegment.get(segment) ?? index.parameterFirst)(req, res, next);
  };
}

function literalFirstSegment(path: string): string | null {
  const segment = path.split('/')[1] ?? '';
  return /^[A-Za-z0-9._~-]+$/.test(segment) ? segment.toLowerCase() : null;
}

function buildIndex(routes: RegisteredRoute[]): { bySegment: Map<string, Router>; parameterFirst: Router } {
  const bySegment = new Map<string, Router>();
  for (const route of routes) {
    const segment = literalFirstSegment(route.path);
    if (segment !== null && !bySegment.has(segment)) bySegment.set(segment, Router());
  }
  const parameterFirst = Router();
  for (const route of routes) {
    const segment = literalFirstSegment(route.path);
    const targets = segment === null ? [...bySegment.values(), parameterFirst] : [bySegment.get(segment)!];
    for (const router of targets) router[route.method](route.path, ...route.handlers);
  }
  return { bySegment, parameterFirst };
}
