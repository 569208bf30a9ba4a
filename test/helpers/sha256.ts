import { createHash } from 'node:crypto';

/** The SHA-256 of bytes, or of a string's UTF-8, in hex. */
export function sha256Hex(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}
