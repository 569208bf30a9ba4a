import type { NextFunction, Request, Response } from 'express';
import { isValidPermission } from '../../shared/domains/rbac/permissions.ts';
import { PermissionDenied } from '../../shared/errors.ts';
import { DocumentedRouter, type PermissionGuard } from '../openapi/documented-router.ts';
import { principalHolds, principalOf } from './principal.ts';

/**
 * The check of a route that declares `permission`: the caller's role, read on this request, must
 * grant it (so a role change applies to existing sessions and tokens at once). No caller: 401.
 * Only the router applies it, from the route's doc, so the catalogue sees every check.
 */
export const authorize: PermissionGuard = (doc) => {
  const { permission } = doc;
  // A route checks one exact permission; wildcards are what roles grant. Wrong ones stop the boot.
  if (!isValidPermission(permission)) throw new Error(`${doc.method.toUpperCase()} ${doc.path}: "${permission}" is not a <resource>:<action> permission`);
  return (_req: Request, res: Response, next: NextFunction) => {
    if (!principalHolds(principalOf(res), permission)) throw PermissionDenied.missing(permission);
    next();
  };
};

/** The router every /v1 route file builds: routes declaring `permission` are enforced by `authorize`. */
export function v1Router(): DocumentedRouter {
  return new DocumentedRouter({ permissionGuard: authorize });
}

