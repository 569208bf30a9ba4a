import crypto, { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * argon2id verification on the node. Node 24.7+ has it built in (node:crypto's argon2); on an older
 * Node the `argon2` package is used when it can be loaded (a checkout with node_modules). The agent
 * bundle ships no native addon, so a node with neither refuses password logins (keys still work),
 * and says so once in its log.
 */
type Argon2Params = { message: Buffer; nonce: Buffer; parallelism: number; tagLength: number; memory: number; passes: number };
type NodeArgon2 = (algorithm: 'argon2id', params: Argon2Params, callback: (error: Error | null, tag: Buffer) => void) => void;

const builtIn = (crypto as unknown as { argon2?: NodeArgon2 }).argon2;

/** `$argon2id$v=19$<m=…,t=…,p=… in any order>$<salt>$<tag>`, base64 without padding. */
const PHC = /^\$argon2id\$v=19\$([a-z]=\d+(?:,[a-z]=\d+){2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/** The same normalisation as the control plane's password policy (NFKC). */
function normalize(password: string): Buffer {
  return Buffer.from(password.normalize('NFKC'), 'utf8');
}

function fromB64(text: string): Buffer {
  return Buffer.from(text, 'base64');
}

async function verifyBuiltIn(argon2: NodeArgon2, hash: string, password: string): Promise<boolean> {
  const match = PHC.exec(hash);
  if (!match) return false;
  const [, list, salt, tag] = match;
  const params = Object.fromEntries(list!.split(',').map((pair) => [pair[0], Number(pair.slice(2))]));
  const [memory, passes, parallelism] = [params.m, params.t, params.p];
  if (!memory || !passes || !parallelism) return false;
  const expected = fromB64(tag!);
  const computed = await new Promise<Buffer>((resolve, reject) =>
    argon2(
      'argon2id',
      {
        message: normalize(password),
        nonce: fromB64(salt!),
        parallelism: Number(parallelism),
        tagLength: expected.length,
        memory: Number(memory),
        passes: Number(passes),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

type Verifier = (hash: string, password: string) => Promise<boolean>;

let verifier: Promise<Verifier | null> | undefined;

async function loadVerifier(): Promise<Verifier | null> {
  if (builtIn) return (hash, password) => verifyBuiltIn(builtIn, hash, password);
  try {
    const name = 'argon2'; // not bundled: an addon on the node is optional
    const module = (await import(name)) as { default: { verify(hash: string, password: string): Promise<boolean> } };
    return (hash, password) => module.default.verify(hash, password.normalize('NFKC'));
  } catch {
    return null;
  }
}

/** Whether this Node can check passwords at all. */
export async function passwordsSupported(): Promise<boolean> {
  verifier ??= loadVerifier();
  return (await verifier) !== null;
}

/** True when `password` matches the argon2id `hash`; false on any mismatch or a malformed hash. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  verifier ??= loadVerifier();
  const verify = await verifier;
  if (!verify) return false;
  try {
    return await verify(hash, password);
  } catch {
    return false;
  }
}

/** A hash of a random password, for spending a verification's time on an unknown username. */
export const DUMMY_HASH = `$argon2id$v=19$m=19456,t=2,p=1$${randomBytes(16).toString('base64').replace(/=+$/, '')}$${randomBytes(32).toString('base64').replace(/=+$/, '')}`;
