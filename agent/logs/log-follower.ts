import fs from 'node:fs';
import { LOG_LINE_MAX_CHARS } from '../../shared/agent-protocol/constants.ts';

/** Where reading a file got to: its identity (a rotated or replaced file is another) and offset. */
export type FollowState = { dev: number; ino: number; offset: number };

/** What a read gave: complete lines, and the state after them (to keep only once they were shipped). */
export type ReadResult = { lines: string[]; state: FollowState; bytes: number };

const NOT_A_FILE = new Set(['ELOOP', 'ENOENT', 'ENOTDIR', 'EACCES', 'ENXIO', 'EISDIR', 'EMLINK']);

/**
 * Whether the file at `path` may have something new: it is a regular file (lstat: a symbolic link
 * is not followed) and is another file than `state`'s, or a different size. Only a stat: an idle
 * node reads nothing.
 */
export async function changed(path: string, state: FollowState | undefined): Promise<fs.Stats | undefined> {
  const stat = await fs.promises.lstat(path).catch(() => undefined);
  if (!stat || !stat.isFile() || stat.nlink !== 1) return undefined;
  if (state && state.dev === stat.dev && state.ino === stat.ino && state.offset === stat.size) return undefined;
  return stat;
}

/**
 * The complete lines written to `path` since `state`, at most `maxBytes` of them. Opened with
 * O_NOFOLLOW and O_NONBLOCK and checked with fstat: a tenant can plant a symbolic link (to
 * /etc/shadow) or a FIFO where php.log goes, and then nothing is read. Another file than the state's
 * (rotated, replaced) or a shorter one (truncated) is read from its start. A line not ended yet
 * waits for its newline, unless it is already longer than LOG_LINE_MAX_CHARS (then it is cut).
 */
export async function readNewLines(path: string, state: FollowState | undefined, maxBytes: number): Promise<ReadResult | undefined> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(path, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (error) {
    if (NOT_A_FILE.has((error as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw error;
  }
  try {
    const stat = await handle.stat();
    // a log has one name: a second one is a hard link a tenant made to a file of theirs elsewhere
    if (!stat.isFile() || stat.nlink !== 1) return undefined;
    const same = state !== undefined && state.dev === stat.dev && state.ino === stat.ino && state.offset <= stat.size;
    const from = same ? state.offset : 0;
    const length = Math.min(maxBytes, stat.size - from);
    const next = { dev: stat.dev, ino: stat.ino, offset: from };
    if (length <= 0) return { lines: [], state: next, bytes: 0 };
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, from);
    const { lines, consumed } = splitLines(buffer.subarray(0, bytesRead));
    return { lines, state: { ...next, offset: from + consumed }, bytes: consumed };
  } finally {
    await handle.close();
  }
}

/**
 * Complete lines of `chunk` and how many bytes they took. The rest (a line without its newline yet)
 * is left for the next read, unless it is already too long to be a line we keep: then it is cut
 * into pieces of LOG_LINE_MAX_CHARS bytes.
 */
export function splitLines(chunk: Buffer): { lines: string[]; consumed: number } {
  const lines: string[] = [];
  let start = 0;
  for (;;) {
    const newline = chunk.indexOf(0x0a, start);
    const end = newline === -1 ? chunk.length : newline;
    if (end - start > LOG_LINE_MAX_CHARS) {
      // a line too long for one record: its first LOG_LINE_MAX_CHARS bytes now, the rest after
      lines.push(decode(chunk.subarray(start, start + LOG_LINE_MAX_CHARS)));
      start += LOG_LINE_MAX_CHARS;
      continue;
    }
    if (newline === -1) break;
    lines.push(decode(chunk.subarray(start, newline)));
    start = newline + 1;
  }
  // a read cut short by the byte cap may end mid-line: that part waits (read again next time)
  return { lines, consumed: start };
}

/** UTF-8 with bad sequences replaced (a binary line stays a line); the carriage return of CRLF dropped; a string at most LOG_LINE_MAX_CHARS long. */
function decode(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return (text.endsWith('\r') ? text.slice(0, -1) : text).slice(0, LOG_LINE_MAX_CHARS);
}
