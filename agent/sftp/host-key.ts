import { createHash, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../atomic-file.ts';
import { KEYS_DIR } from '../identity.ts';

const HOST_KEY_FILE = 'sftp-host-ed25519';
const KEY_TYPE = 'ssh-ed25519';
const OPENSSH_MAGIC = 'openssh-key-v1\0';

/** The SFTP server's host key: its private key (OpenSSH format), public key line and fingerprint. */
export type HostKey = { privateKey: string; publicLine: string; fingerprint: string };

/** `SHA256:<unpadded base64>` of a public key blob, as `ssh-keygen -l` shows it. */
export function fingerprintOf(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/**
 * The node's SFTP host key (Ed25519): generated on first start and kept 0600 beside the agent's own
 * key, so clients that pinned it never see it change while the node lives. Made and read with Node's
 * crypto, not ssh2: an idle agent reports the key in its heartbeat without loading ssh2 (whose
 * WebAssembly poly1305 alone holds about 16 MB) until a client connects.
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
    privateKey = generateOpenSshEd25519();
    writeFileAtomic(file, privateKey, 0o600);
  }
  const blob = publicBlobOf(privateKey);
  if (!blob) throw new Error(`the SFTP host key ${file} does not parse: not an unencrypted OpenSSH ${KEY_TYPE} key`);
  return { privateKey, publicLine: `${KEY_TYPE} ${blob.toString('base64')}`, fingerprint: fingerprintOf(blob) };
}

const uint32 = (value: number) => {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
};
const sshString = (value: Buffer | string) => {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'latin1') : value;
  return Buffer.concat([uint32(bytes.length), bytes]);
};

/** A new Ed25519 key in OpenSSH's private key format (PROTOCOL.key), unencrypted, as ssh-keygen writes it. */
export function generateOpenSshEd25519(): string {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const seed = Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url');
  const pub = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  const publicBlob = Buffer.concat([sshString(KEY_TYPE), sshString(pub)]);
  const check = uint32(createHash('sha256').update(seed).digest().readUInt32BE());
  const unpadded = Buffer.concat([check, check, sshString(KEY_TYPE), sshString(pub), sshString(Buffer.concat([seed, pub])), sshString('berth-sftp')]);
  const padding = Buffer.from(Array.from({ length: (8 - (unpadded.length % 8)) % 8 }, (_, index) => index + 1));
  const body = Buffer.concat([
    Buffer.from(OPENSSH_MAGIC, 'latin1'),
    sshString('none'),
    sshString('none'),
    sshString(''),
    uint32(1),
    sshString(publicBlob),
    sshString(Buffer.concat([unpadded, padding])),
  ]);
  const lines = body.toString('base64').match(/.{1,70}/g)!;
  return `-----BEGIN OPENSSH PRIVATE KEY-----\n${lines.join('\n')}\n-----END OPENSSH PRIVATE KEY-----\n`;
}

/** The public key blob an unencrypted OpenSSH Ed25519 private key carries in its header, or null. */
export function publicBlobOf(pem: string): Buffer | null {
  const match = /-----BEGIN OPENSSH PRIVATE KEY-----\r?\n([\s\S]+?)\r?\n-----END OPENSSH PRIVATE KEY-----/.exec(pem);
  if (!match) return null;
  const data = Buffer.from(match[1]!.replace(/\s+/g, ''), 'base64');
  if (data.subarray(0, OPENSSH_MAGIC.length).toString('latin1') !== OPENSSH_MAGIC) return null;
  let offset = OPENSSH_MAGIC.length;
  const next = (): Buffer | null => {
    if (offset + 4 > data.length) return null;
    const length = data.readUInt32BE(offset);
    if (offset + 4 + length > data.length) return null;
    const value = data.subarray(offset + 4, offset + 4 + length);
    offset += 4 + length;
    return value;
  };
  const [cipher, kdf] = [next(), next()];
  if (cipher?.toString() !== 'none' || kdf?.toString() !== 'none' || !next() || offset + 4 > data.length) return null;
  offset += 4; // the number of keys: the first one is the host key
  const blob = next();
  if (!blob) return null;
  const type = blob.subarray(4, 4 + blob.readUInt32BE(0)).toString('latin1');
  return type === KEY_TYPE ? Buffer.from(blob) : null;
}
