import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from '../../shared/crypto/passwords.ts';
import type { SftpUser } from '../../shared/db/models.ts';
import type { SftpConnection } from '../../shared/domains/sftp/sftp-users.ts';

export const sftpUsersDescription =
  "SFTP users of an environment, served by the SFTP server of the agent on the environment's node. A user sees only the " +
  "environment's WordPress files (the directory its container serves): that directory is `/`, `..` at the top stays at the " +
  'top, absolute paths are read inside it, and symlinks are never followed (listing or opening through one is refused; a ' +
  'symlink a user creates must be relative and stay inside). Only the SFTP subsystem is served: no shell, no commands, no ' +
  "forwarding. Files and directories a user creates belong to the site's system user (uid 33), so WordPress reads and " +
  'writes them. A user logs in with a password (stored as an argon2id hash; 8 to 128 characters, or generated and shown ' +
  'once in the answer) and/or OpenSSH public keys (ed25519, ECDSA, RSA of 2048 bits or more). Wrong passwords are slowed ' +
  'down and, after 5 within 15 minutes for one username from one address, refused for 15 minutes (right ones included). ' +
  'Creating or changing a user is an operation (`sftp.provision`, `sftp.update`) that pushes it to the node. Revoking ' +
  'is immediate: the user is `revoked` when the answer comes, the node is told at once (`sftp.revoke`), refuses new logins ' +
  "and closes the user's open sessions; a revoked user stays listed and its username is never reused. `connection` says " +
  "where to connect and the server's host key (`host_key` for known_hosts, `host_key_fingerprint` as the sftp client " +
  "shows it on first connection); `port` and the key are null until the node's agent reports its SFTP server.";

const publicKeyLine = z.string().min(1).max(16_384).describe('One OpenSSH public key line, `ssh-ed25519 AAAA… comment`');

export const createSftpUserBody = z.strictObject({
  username: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe(
      '3 to 32 characters: a lower-case letter, then lower-case letters, digits, `-` or `_`; unique across Berth. Default: `<site-slug>-<env>-<4 random>`',
    ),
  password: z
    .string()
    .min(1)
    .max(PASSWORD_MAX_LENGTH * 4)
    .optional()
    .describe('8 to 128 characters'),
  generate_password: z
    .boolean()
    .optional()
    .describe('Generate a password (24 characters), shown once in the answer. The default when neither `password` nor `public_keys` is given'),
  public_keys: z.array(publicKeyLine).max(20).optional(),
});

export const updateSftpUserBody = z.strictObject({
  password: z
    .string()
    .min(1)
    .max(PASSWORD_MAX_LENGTH * 4)
    .optional()
    .describe('A new password (8 to 128 characters)'),
  generate_password: z.boolean().optional().describe('Generate a new password, shown once in the answer'),
  public_keys: z
    .array(publicKeyLine)
    .max(20)
    .optional()
    .describe('The new list of keys, replacing the old one (`[]` removes every key; a user needs a password then)'),
});

export const connectionJson = z
  .object({
    host: z.string().describe("The node's public address"),
    port: z.number().int().nullable(),
    username: z.string(),
    host_key: z
      .string()
      .nullable()
      .describe('An OpenSSH public key line: `<host> <host_key>` (or `[<host>]:<port> <host_key>` off port 22) is the known_hosts line'),
    host_key_fingerprint: z.string().nullable().describe('`SHA256:…`, as the sftp client shows it'),
    command: z.string().nullable().describe('The OpenSSH command line that connects'),
  })
  .meta({ id: 'SftpConnection' });

export const sftpUserJson = z
  .object({
    id: z.number().int(),
    username: z.string(),
    status: z
      .enum(['provisioning', 'active', 'revoked', 'failed'])
      .describe(
        '`provisioning` while an operation pushes it to the node; `failed` when that failed (its operation says why; change its credentials to try again)',
      ),
    password: z.boolean().describe('Whether it logs in with a password (never shown again)'),
    public_keys: z.array(z.object({ type: z.string(), fingerprint: z.string(), comment: z.string().nullable() })),
    connection: connectionJson,
    revoked_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'SftpUser' });

export function sftpUserView(user: SftpUser, connection: SftpConnection): z.infer<typeof sftpUserJson> {
  const command = connection.port === null ? null : `sftp ${connection.port === 22 ? '' : `-P ${connection.port} `}${user.username}@${connection.host}`;
  return {
    id: user.id,
    username: user.username,
    status: user.status,
    password: user.password_hash !== null,
    public_keys: user.public_keys.map(({ type, fingerprint, comment }) => ({ type, fingerprint, comment })),
    connection: {
      host: connection.host,
      port: connection.port,
      username: user.username,
      host_key: connection.host_key,
      host_key_fingerprint: connection.host_key_fingerprint,
      command,
    },
    revoked_at: user.revoked_at?.toISOString() ?? null,
    created_at: user.created_at.toISOString(),
    updated_at: user.updated_at.toISOString(),
  };
}
