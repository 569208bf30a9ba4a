import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import ssh2 from 'ssh2';
import { writeFileAtomic } from '../atomic-file.ts';
import { KEYS_DIR } from '../identity.ts';

const HOST_KEY_FILE = 'sftp-host-ed25519';

/** The SFTP server's host key: its private key (OpenSSH format), public key line and fingerprint. */
export type HostKey = { privateKey: string; publicLine: string; fingerprint: string };

/** `SHA256:<unpadded base64>` of a public key blob, as `ssh-keygen -l` shows it. */
export function fingerprintOf(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/**
 * The node's SFTP host key (Ed25519): generated on first start and kept 0600 beside the agent's own
 * key, so clients that pinned it never see it change while the node lives.
 */
export function loadOrCreateHostKey(dataDir: string): HostKey {
  const dir = path.join(dataDir, KEYS_DIR);
  const file = path.join(dir, HOST_KEY_FILE);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  let privateKey: string;
  try {
    privateKey = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new Error(`cannot read the SFTP host key ${file}: ${(error as Error).message}`, { cause: error });
    privateKey = ssh2.utils.generateKeyPairSync('ed25519').private;
    writeFileAtomic(file, privateKey, 0o600);
  }
  const parsed = ssh2.utils.parseKey(privateKey);
  const key = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!key || key instanceof Error) throw new Error(`the SFTP host key ${file} does not parse: ${key instanceof Error ? key.message : 'empty'}`);
  const blob = key.getPublicSSH();
  return { privateKey, publicLine: `${key.type} ${blob.toString('base64')}`, fingerprint: fingerprintOf(blob) };
}
