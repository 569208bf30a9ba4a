import type { NextFunction, Request, Response } from 'express';
import { isValidPermission } from '../../shared/domains/rbac/permissions.ts';
import { NotFound, PermissionDenied } from '../../shared/errors.ts';
import { DocumentedRouter, type PermissionGuard } from '../openapi/documented-router.ts';
import { actsAsOperator, principalHolds, principalOf } from './principal.ts';

/**
 * The check of a route that declares `permission`: the caller's role, read on this request, must
 * grant it (so a role change applies to existing sessions and tokens at once). No caller: 401.
 * A route that declares `operator` is for operators signed in with a session (see `actsAsOperator`).
 * Only the router applies it, from the route's doc, so the catalogue sees every check.
 */
export const authorize: PermissionGuard = (doc) => {
  const { permission, operator } = doc;
  // A route checks one exact permission; wildcards are what roles grant. Wrong ones stop the boot.
  if (permission !== undefined && !isValidPermission(permission))
    throw new Error(`${doc.method.toUpperCase()} ${doc.path}: "${permission}" is not a <resource>:<action> permission`);
  return (req: Request, res: Response, next: NextFunction) => {
    const principal = principalOf(res);
    if (operator && !actsAsOperator(principal)) {
      // An operator's API token is told why; for everyone else the fleet does not exist: the answer
      // is the unknown-path 404, and nothing goes to the team's audit trail (it would name the route).
      if (principal.operator) throw new PermissionDenied('Operator routes need a signed-in session; API tokens do not carry operator power');
      res.locals.routeDoc = undefined;
      throw new NotFound(`No endpoint ${req.method} ${req.baseUrl}${req.path}`);
    }
    if (permission !== undefined && !principalHolds(principal, permission)) throw PermissionDenied.missing(permission);
    next();
  };
};

/** The router every /v1 route file builds: routes declaring `permission` are enforced by `authorize`. */
export function v1Router(): DocumentedRouter {
  return new DocumentedRouter({ permissionGuard: authorize });
}
