import { describe, expect, it } from 'vitest';
import { grants, isSubset, isValidGrant, isValidPermission } from '../../shared/domains/rbac/permissions.ts';

describe('isValidPermission', () => {
  it.each(['sites:read', 'api_tokens:create', 'v2_sites:read_1'])('accepts %s', (permission) => {
    expect(isValidPermission(permission)).toBe(true);
  });
  it.each(['sites', 'sites:', ':read', 'Sites:read', 'sites:read:all', 'sites-x:read', 'sites :read', '*', 'sites:*', ''])('refuses %j', (permission) => {
    expect(isValidPermission(permission)).toBe(false);
  });
  it('accepts the wildcards as grants, not as permissions', () => {
    expect(isValidGrant('*')).toBe(true);
    expect(isValidGrant('sites:*')).toBe(true);
    expect(isValidGrant('*:read')).toBe(false);
    expect(isValidGrant('sites*')).toBe(false);
  });
});

describe('grants', () => {
  it('lets * grant everything', () => {
    expect(grants(['*'], 'sites:read')).toBe(true);
    expect(grants(['*'], 'billing:update')).toBe(true);
  });
  it('lets sites:* grant sites:read, not sitesx:read nor sites alone', () => {
    expect(grants(['sites:*'], 'sites:read')).toBe(true);
    expect(grants(['sites:*'], 'sites:delete')).toBe(true);
    expect(grants(['sites:*'], 'sitesx:read')).toBe(false);
    expect(grants(['sites:*'], 'sites')).toBe(false);
    expect(grants(['sites:*'], 'site:read')).toBe(false);
  });
  it('matches exact permissions exactly', () => {
    expect(grants(['sites:read'], 'sites:read')).toBe(true);
    expect(grants(['sites:read'], 'sites:update')).toBe(false);
    expect(grants(['sites:read'], 'sites:readx')).toBe(false);
    expect(grants(['sites:read'], 'sites:*')).toBe(false);
    expect(grants([], 'sites:read')).toBe(false);
  });
  it('never matches a malformed permission, even against *', () => {
    expect(grants(['*'], 'sites')).toBe(false);
    expect(grants(['*'], '')).toBe(false);
    expect(grants(['Sites:Read'], 'Sites:Read')).toBe(false);
  });
});

describe('isSubset (nobody grants what they do not hold)', () => {
  it('allows a subset of exact permissions and what a wildcard covers', () => {
    expect(isSubset(['sites:read'], ['sites:read', 'backups:read'])).toBe(true);
    expect(isSubset(['sites:read', 'sites:update'], ['sites:*'])).toBe(true);
    expect(isSubset(['sites:*', 'billing:read'], ['*'])).toBe(true);
    expect(isSubset([], [])).toBe(true);
  });
  it('refuses escalation', () => {
    expect(isSubset(['sites:*'], ['sites:read'])).toBe(false);
    expect(isSubset(['sites:*'], ['sites:read', 'sites:update', 'sites:delete'])).toBe(false);
    expect(isSubset(['*'], ['sites:*', 'billing:*'])).toBe(false);
    expect(isSubset(['billing:read'], ['sites:*'])).toBe(false);
    expect(isSubset(['sites:read', 'billing:read'], ['sites:read'])).toBe(false);
  });
  it('covers a requested sites:* only by sites:* or *, and * only by *', () => {
    expect(isSubset(['sites:*'], ['sites:*'])).toBe(true);
    expect(isSubset(['sites:*'], ['*'])).toBe(true);
    expect(isSubset(['sitesx:*'], ['sites:*'])).toBe(false);
    expect(isSubset(['*'], ['*'])).toBe(true);
  });
  it('refuses malformed requests', () => {
    expect(isSubset(['sites'], ['*'])).toBe(false);
    expect(isSubset(['*:read'], ['*'])).toBe(false);
  });
});
