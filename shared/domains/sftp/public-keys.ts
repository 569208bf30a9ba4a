import { createHash, createPublicKey } from 'node:crypto';
import ssh2 from 'ssh2';
import type { SftpPublicKey } from '../../db/models.ts';
import { ValidationFailed } from '../../errors.ts';

/** Key types an SFTP user may log in with; RSA from 2048 bits (ssh-keygen's default is 3072). */
const ACCEPTED_TYPES = new Set(['ssh-ed25519', 'ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp521', 'ssh-rsa']);
const MIN_RSA_BITS = 2048;
export const MAX_PUBLIC_KEYS = 20;

/** `SHA256:<unpadded base64>` of a public key blob, as `ssh-keygen -l` and OpenSSH's prompts show it. */
export function sha256Fingerprint(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/**
 * One line of an authorized_keys file (`type base64 [comment]`, no options), checked: a type we
 * accept, a blob that parses as that type, RSA long enough. `field` names it in the 422.
 */
export function parsePublicKey(line: string, field: string): SftpPublicKey {
  const trimmed = line.trim();
  const [type = '', data = '', ...rest] = trimmed.split(/\s+/);
  if (!ACCEPTED_TYPES.has(type))
    throw ValidationFailed.field(field, `must be an OpenSSH public key line ("ssh-ed25519 AAAA… comment"); accepted types: ${[...ACCEPTED_TYPES].join(', ')}`);
  const parsed = ssh2.utils.parseKey(`${type} ${data}`);
  const key = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!key || key instanceof Error || key.type !== type)
    throw ValidationFailed.field(field, 'is not a valid OpenSSH public key (the base64 part does not decode to a key of its type)');
  if (type === 'ssh-rsa') {
    const bits = createPublicKey(key.getPublicPEM()).asymmetricKeyDetails?.modulusLength ?? 0;
    if (bits < MIN_RSA_BITS) throw ValidationFailed.field(field, `is an RSA key of ${bits} bits; at least ${MIN_RSA_BITS} are needed`);
  }
  const comment = rest.join(' ').slice(0, 200) || null;
  return { key: [type, data, comment].filter(Boolean).join(' '), type, fingerprint: sha256Fingerprint(key.getPublicSSH()), comment };
}

/** A list of key lines: each parsed, the same key twice refused. */
export function parsePublicKeys(lines: readonly string[], field = 'public_keys'): SftpPublicKey[] {
  if (lines.length > MAX_PUBLIC_KEYS) throw ValidationFailed.field(field, `holds at most ${MAX_PUBLIC_KEYS} keys`);
  const keys = lines.map((line, index) => parsePublicKey(line, `${field}.${index}`));
  const fingerprints = keys.map((key) => key.fingerprint);
  const repeated = fingerprints.findIndex((fingerprint, index) => fingerprints.indexOf(fingerprint) !== index);
  if (repeated >= 0) throw ValidationFailed.field(`${field}.${repeated}`, 'is the same key as an earlier one');
  return keys;
}
