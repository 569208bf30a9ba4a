import { createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SignJWT } from 'jose';
import { AGENT_TOKEN_AUDIENCE, AGENT_TOKEN_TTL_SECONDS } from '../shared/agent-protocol/constants.ts';
import { writeFileAtomic } from './atomic-file.ts';

/** Where the agent keeps who it is, inside its data directory (commands cannot reach these). */
export const KEYS_DIR = 'keys';
const PRIVATE_KEY_FILE = 'agent-ed25519.pem';
const NODE_FILE = 'node.json';

export type NodeIdentity = { node_id: string; node_name: string; enrolled_at: string; control_plane_url: string };

/**
 * The node's Ed25519 key: generated on first start and kept 0600 (its directory 0700). It is written
 * before enrollment, so a retried enrollment registers the same key.
 */
export function loadOrCreateKey(dataDir: string): KeyObject {
  const dir = path.join(dataDir, KEYS_DIR);
  const file = path.join(dir, PRIVATE_KEY_FILE);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  try {
    return createPrivateKey(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new Error(`cannot read the agent's key ${file}: ${(error as Error).message}`, { cause: error });
  }
  const { privateKey } = generateKeyPairSync('ed25519');
  writeFileAtomic(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), 0o600);
  return privateKey;
}

export function publicJwk(privateKey: KeyObject): { kty: 'OKP'; crv: 'Ed25519'; x: string } {
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  return { kty: 'OKP', crv: 'Ed25519', x: String(jwk.x) };
}

export function readNodeIdentity(dataDir: string): NodeIdentity | null {
  const file = path.join(dataDir, KEYS_DIR, NODE_FILE);
  try {
    const identity = JSON.parse(fs.readFileSync(file, 'utf8')) as NodeIdentity;
    if (typeof identity.node_id !== 'string') throw new Error('no node_id');
    return identity;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`cannot read the node identity ${file}: ${(error as Error).message}`, { cause: error });
  }
}

export function writeNodeIdentity(dataDir: string, identity: NodeIdentity): void {
  writeFileAtomic(path.join(dataDir, KEYS_DIR, NODE_FILE), `${JSON.stringify(identity, null, 2)}\n`, 0o600);
}

/** A bearer token for one request: EdDSA, kid = sub = node id, short-lived, never reused (fresh jti). */
export async function signAgentToken(privateKey: KeyObject, nodeId: string, nowMs: number = Date.now()): Promise<string> {
  const now = Math.floor(nowMs / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'EdDSA', kid: nodeId, typ: 'JWT' })
    .setSubject(nodeId)
    .setAudience(AGENT_TOKEN_AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + AGENT_TOKEN_TTL_SECONDS)
    .setJti(randomUUID())
    .sign(privateKey);
}
