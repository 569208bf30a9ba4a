import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config-error.ts';

export type Secrets = Readonly<{
  /** Ed25519 key that signs access tokens. */
  jwtPrivateKey: KeyObject;
  /** Public keys accepted when verifying: the current one first, then retired ones during a rotation. */
  jwtPublicKeys: KeyObject[];
  /** 32 bytes for sealing data at rest (AES-256-GCM). */
  secretKey: Buffer;
}>;

type SecretSources = {
  dataDir: string;
  jwtPrivateKey: string | undefined;
  jwtPreviousPublicKeys: string | undefined;
  secretKey: string | undefined;
};

/**
 * Secrets come from the environment; where one is missing (never in production, which config
 * rejects earlier) it is generated once and kept in the data directory, so restarts keep sessions.
 */
export function loadSecrets(sources: SecretSources): Secrets {
  const jwtPrivateKey = parseEd25519PrivateKey(
    sources.jwtPrivateKey ?? readOrCreate(path.join(sources.dataDir, 'secrets', 'jwt-ed25519.pem'), generateEd25519Pem),
  );
  const previous = splitPems(sources.jwtPreviousPublicKeys ?? '').map((pem) => {
    try {
      return createPublicKey(pem);
    } catch {
      throw new ConfigError('invalid configuration:\n  JWT_PREVIOUS_PUBLIC_KEYS: not a PEM public key');
    }
  });
  const secretKeyText = sources.secretKey ?? readOrCreate(path.join(sources.dataDir, 'secrets', 'secret-key'), () => randomBytes(32).toString('base64'));
  const secretKey = Buffer.from(secretKeyText.trim(), 'base64');
  if (secretKey.length !== 32) {
    throw new ConfigError('invalid configuration:\n  SECRET_KEY: must be 32 bytes, base64-encoded (openssl rand -base64 32)');
  }
  return Object.freeze({ jwtPrivateKey, jwtPublicKeys: [createPublicKey(jwtPrivateKey), ...previous], secretKey });
}

function parseEd25519PrivateKey(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem.replace(/\\n/g, '\n'));
  } catch {
    throw new ConfigError('invalid configuration:\n  JWT_PRIVATE_KEY: not a PEM private key');
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new ConfigError('invalid configuration:\n  JWT_PRIVATE_KEY: must be an Ed25519 key (openssl genpkey -algorithm ed25519)');
  }
  return key;
}

function generateEd25519Pem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

function splitPems(text: string): string[] {
  return text.replace(/\\n/g, '\n').match(/-----BEGIN [A-Z ]+-----[\s\S]+?-----END [A-Z ]+-----/g) ?? [];
}

function readOrCreate(file: string, create: () => string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const value = create();
  try {
    // wx: when two processes start at once, the second keeps the first one's secret
    fs.writeFileSync(file, value, { mode: 0o600, flag: 'wx' });
    return value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFileSync(file, 'utf8');
    throw error;
  }
}
