import { randomBytes } from 'node:crypto';
import type { EnvironmentKind } from '../../db/models.ts';
import { ValidationFailed } from '../../errors.ts';

/** 3 to 32 characters: a lower-case letter first, then letters, digits, `-` and `_` (a Unix login name). */
export const USERNAME_PATTERN = /^[a-z][a-z0-9_-]{2,31}$/;

/** Names a user may not take: they read as the host's own accounts. */
const RESERVED = new Set([
  'root',
  'admin',
  'administrator',
  'daemon',
  'bin',
  'sys',
  'sync',
  'nobody',
  'www-data',
  'mysql',
  'postgres',
  'sshd',
  'berth',
  'operator',
  'ftp',
  'sftp',
]);

const SHORT_KIND: Record<EnvironmentKind, string> = { production: 'prod', staging: 'stage', development: 'dev' };

export function assertUsername(username: string): void {
  if (!USERNAME_PATTERN.test(username))
    throw ValidationFailed.field('username', 'must be 3 to 32 characters: a lower-case letter, then lower-case letters, digits, - or _');
  if (RESERVED.has(username)) throw ValidationFailed.field('username', `${username} is reserved`);
}

/** `<site slug>-<env>-<4 random>`, e.g. `acme-shop-prod-k3x9`: readable in a client's bookmarks, unique by its suffix. */
export function derivedUsername(siteSlug: string, kind: EnvironmentKind): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';
  const suffix = [...randomBytes(4)].map((byte) => alphabet[byte % alphabet.length]).join('');
  let stem = siteSlug
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .slice(0, 20)
    .replace(/-+$/, '');
  if (stem === '') stem = 'site';
  return `${stem}-${SHORT_KIND[kind]}-${suffix}`;
}
