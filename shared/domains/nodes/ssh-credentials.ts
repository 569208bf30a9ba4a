import ssh2 from 'ssh2';
import { z } from 'zod';
import { seal, unseal } from '../../crypto/sealed.ts';
import { ValidationFailed } from '../../errors.ts';

/**
 * What enrollment logs in with: a private key (with its passphrase, if any) or a password. Kept
 * sealed with SECRET_KEY in `nodes.ssh_credentials_sealed` only until the node is enrolled, then
 * erased; never in an operation's input, an answer or a log line.
 */
export const sshCredentials = z.union([z.object({ private_key: z.string(), passphrase: z.string().optional() }), z.object({ password: z.string() })]);
export type SshCredentials = z.infer<typeof sshCredentials>;

// ssh2 is CommonJS: Node's ESM loader sees its default export only (named imports work under vitest alone).

/** A key ssh2 cannot read fails here, with the field, rather than at enrollment. */
export function assertUsableKey(credentials: SshCredentials, field = 'ssh.private_key'): void {
  if (!('private_key' in credentials)) return;
  const parsed = ssh2.utils.parseKey(credentials.private_key, credentials.passphrase);
  const key = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!key || key instanceof Error) {
    const reason = key instanceof Error ? key.message : 'no key found';
    throw ValidationFailed.field(
      field,
      `is not a private key that can be used (${reason}); give an OpenSSH or PEM private key, and its passphrase if it has one`,
    );
  }
  if (!key.isPrivateKey()) throw ValidationFailed.field(field, 'is a public key; give the private key');
}

export function sealCredentials(secretKey: Buffer, credentials: SshCredentials): string {
  return seal(secretKey, JSON.stringify(credentials));
}

export function unsealCredentials(secretKey: Buffer, sealed: string): SshCredentials {
  return sshCredentials.parse(JSON.parse(unseal(secretKey, sealed)));
}

/** How the node is logged in to, without the secret. */
export function authMethodOf(credentials: SshCredentials): 'private_key' | 'password' {
  return 'private_key' in credentials ? 'private_key' : 'password';
}
