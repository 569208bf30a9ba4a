import type { Environment, SftpUser } from '../../shared/db/models.ts';
import type { SftpUserEntry } from '../../shared/agent-protocol/commands.ts';
import { environmentLayout } from '../../shared/domains/nodes/node-layout.ts';
import { WORDPRESS_RUNTIME } from '../../shared/wordpress/runtime.ts';

/** A user as its node serves it: jailed to the environment's files, working as the site's uid. */
export function nodeEntryOf(user: SftpUser, environment: Pick<Environment, 'id' | 'node_id'>): SftpUserEntry {
  return {
    id: user.id,
    username: user.username,
    password_hash: user.password_hash,
    public_keys: user.public_keys.map((key) => key.key),
    root: environmentLayout(environment).filesDir,
    uid: WORDPRESS_RUNTIME.siteUid,
    gid: WORDPRESS_RUNTIME.siteGid,
  };
}
