/**
 * Permissions are `<resource>:<action>` strings (lower-case letters, digits, `_`). A role or an API
 * token holds a list of grants, each an exact permission, `<resource>:*` (every action on the
 * resource) or `*` (everything). Pure functions: no I/O, so the rules are tested on their own.
 */

const PERMISSION = /^[a-z0-9_]+:[a-z0-9_]+$/;
const RESOURCE_WILDCARD = /^[a-z0-9_]+:\*$/;

/** An exact permission such as `sites:read`; wildcards are grants, not permissions. */
export function isValidPermission(permission: string): boolean {
  return PERMISSION.test(permission);
}

/** What may be granted: an exact permission, `<resource>:*` or `*`. */
export function isValidGrant(grant: string): boolean {
  return grant === '*' || RESOURCE_WILDCARD.test(grant) || PERMISSION.test(grant);
}

/**
 * Whether the grants cover `needed` (an exact permission, or a wildcard when asking whether one grant
 * list covers another). `sites:*` covers `sites:read` and `sites:*`, never `sitesx:read` nor `sites`.
 */
export function grants(granted: readonly string[], needed: string): boolean {
  if (!isValidGrant(needed)) return false;
  return granted.some((grant) => {
    if (grant === '*') return true;
    if (grant === needed) return isValidGrant(grant);
    if (RESOURCE_WILDCARD.test(grant)) return needed !== '*' && needed.startsWith(grant.slice(0, -1));
    return false;
  });
}

/**
 * Whether everything `requested` is covered by what is `held`: nobody grants (to a role, an API
 * token) what they do not hold. A requested `sites:*` needs `sites:*` or `*`; a requested `*` needs `*`.
 */
export function isSubset(requested: readonly string[], held: readonly string[]): boolean {
  return requested.every((permission) => grants(held, permission));
}
