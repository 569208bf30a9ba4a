import { createHash, randomBytes } from 'node:crypto';

/**
 * SHA-512-crypt (`$6$`, Ulrich Drepper's "Unix crypt using SHA-256 and SHA-512"), the strongest
 * scheme nginx's `auth_basic_user_file` verifies through the C library's crypt() on every Debian
 * edge. Berth stores only this hash of an environment's basic-auth password and writes it into the
 * edge's htpasswd file; the password itself is never kept.
 */

const ALPHABET = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const DEFAULT_ROUNDS = 5000;
/** The order in which the digest's bytes are encoded, three at a time (the specification's table). */
const ENCODING_ORDER = [
  [0, 21, 42], [22, 43, 1], [44, 2, 23], [3, 24, 45], [25, 46, 4], [47, 5, 26], [6, 27, 48], [28, 49, 7],
  [50, 8, 29], [9, 30, 51], [31, 52, 10], [53, 11, 32], [12, 33, 54], [34, 55, 13], [56, 14, 35], [15, 36, 57],
  [37, 58, 16], [59, 17, 38], [18, 39, 60], [40, 61, 19], [62, 20, 41],
] as const; // prettier-ignore

const sha512 = (...parts: Buffer[]): Buffer => {
  const hash = createHash('sha512');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

/** `source` repeated (whole and then in part) to `length` bytes. */
function repeatTo(source: Buffer, length: number): Buffer {
  const out = Buffer.alloc(length);
  for (let offset = 0; offset < length; offset += source.length) source.copy(out, offset, 0, Math.min(source.length, length - offset));
  return out;
}

function encode24(b2: number, b1: number, b0: number, chars: number): string {
  let word = (b2 << 16) | (b1 << 8) | b0;
  let out = '';
  for (let i = 0; i < chars; i++) {
    out += ALPHABET[word & 0x3f];
    word >>>= 6;
  }
  return out;
}

/** The `$6$` hash of `password` with `salt` (at most 16 characters of ./0-9A-Za-z; a random one by default). */
export function sha512Crypt(password: string, salt = randomSalt(), rounds = DEFAULT_ROUNDS): string {
  if (!/^[./0-9A-Za-z]{1,16}$/.test(salt)) throw new Error('sha512Crypt: the salt is 1 to 16 characters of ./0-9A-Za-z');
  if (!Number.isInteger(rounds) || rounds < 1000 || rounds > 999_999_999) throw new Error('sha512Crypt: rounds from 1000');
  const key = Buffer.from(password, 'utf8');
  const saltBytes = Buffer.from(salt, 'ascii');
  const alternate = sha512(key, saltBytes, key);
  const first = createHash('sha512').update(key).update(saltBytes).update(repeatTo(alternate, key.length));
  for (let length = key.length; length > 0; length >>= 1) first.update(length & 1 ? alternate : key);
  let digest = first.digest();
  const keySequence = repeatTo(sha512(...new Array<Buffer>(key.length).fill(key)), key.length);
  const saltSequence = repeatTo(sha512(...new Array<Buffer>(16 + digest[0]!).fill(saltBytes)), saltBytes.length);
  for (let round = 0; round < rounds; round++) {
    const hash = createHash('sha512');
    hash.update(round & 1 ? keySequence : digest);
    if (round % 3) hash.update(saltSequence);
    if (round % 7) hash.update(keySequence);
    hash.update(round & 1 ? digest : keySequence);
    digest = hash.digest();
  }
  let encoded = '';
  for (const [a, b, c] of ENCODING_ORDER) encoded += encode24(digest[a]!, digest[b]!, digest[c]!, 4);
  encoded += encode24(0, 0, digest[63]!, 2);
  return `$6$${rounds === DEFAULT_ROUNDS ? '' : `rounds=${rounds}$`}${salt}$${encoded}`;
}

function randomSalt(): string {
  return [...randomBytes(16)].map((byte) => ALPHABET[byte & 0x3f]).join('');
}
