import { randomBytes } from 'node:crypto';
import type fs from 'node:fs';
import type { Directory } from '../runtime/anchored.ts';
import { denied, failure } from './jail.ts';
import { SFTP_LIMITS } from './limits.ts';

/** Bytes of a handle id (random). */
const HANDLE_BYTES = 16;

/** Operations working on a handle now, and who waits for them to end before closing it. */
type Use = { busy: number; idle: (() => void) | null };
export type FileHandle = { kind: 'file'; handle: fs.promises.FileHandle; shown: string } & Use;
export type DirHandle = { kind: 'dir'; directory: Directory; shown: string; names: string[] | null } & Use;
export type Open = FileHandle | DirHandle;

/** A new entry's use count: nothing uses it yet. */
export const unused: Use = { busy: 0, idle: null };

/**
 * The open files and directories of one SFTP session, by handle id: random, so a handle of another
 * session or a closed one is never guessed. At most SFTP_LIMITS.handles, counting those being opened.
 */
export class SessionHandles {
  private readonly open = new Map<string, Open>();
  /** Handles being opened (OPEN, OPENDIR awaiting the disk): they count against the limit already. */
  private opening = 0;
  private readonly revoked: () => boolean;

  /** `revoked` is asked as a handle registers: one opened while the session was revoked is closed at once. */
  constructor(revoked: () => boolean) {
    this.revoked = revoked;
  }

  /**
   * Runs an OPEN or OPENDIR holding a place among the handles from the moment it arrives: checked
   * after the disk's await, pipelined opens would all pass the check before any had registered.
   */
  async reserving(requested: string, opening: () => Promise<void>): Promise<void> {
    if (this.open.size + this.opening >= SFTP_LIMITS.handles) throw failure(requested, `too many open handles (at most ${SFTP_LIMITS.handles})`);
    this.opening += 1;
    try {
      await opening();
    } finally {
      this.opening -= 1;
    }
  }

  /** A new handle id for `open`; refused (and closed) when the session was revoked while it was opened. */
  async register(open: Open): Promise<Buffer> {
    if (this.revoked()) {
      await closeEntry(open);
      throw denied(open.shown, 'access revoked');
    }
    const handle = randomBytes(HANDLE_BYTES);
    this.open.set(handle.toString('hex'), open);
    return handle;
  }

  /**
   * Runs `use` on the open handle, counted as busy: close (and closeAll) waits until no operation
   * uses it, since a descriptor number closed mid-operation may be given to the next open (another
   * user's jail) and a `/proc/self/fd/N` path made from it would then lead there.
   */
  async using(handle: Buffer, use: (open: Open) => Promise<void>): Promise<void> {
    const open = this.entryOf(handle);
    open.busy += 1;
    try {
      await use(open);
    } finally {
      open.busy -= 1;
      if (open.busy === 0) open.idle?.();
    }
  }

  /** CLOSE: the handle is gone at once, its descriptor closed once no operation uses it. */
  async close(handle: Buffer): Promise<void> {
    const open = this.entryOf(handle);
    this.open.delete(handle.toString('hex'));
    await closeWhenIdle(open);
  }

  async closeAll(): Promise<void> {
    const open = [...this.open.values()];
    this.open.clear();
    await Promise.all(open.map((entry) => closeWhenIdle(entry).catch(() => undefined)));
  }

  private entryOf(handle: Buffer): Open {
    const open = handle.length === HANDLE_BYTES ? this.open.get(handle.toString('hex')) : undefined;
    if (!open) throw failure('handle', 'no such open handle');
    return open;
  }
}

/** Closes a handle (already out of the session's map) once no operation uses it any more. */
async function closeWhenIdle(open: Open): Promise<void> {
  if (open.busy > 0) await new Promise<void>((resolve) => (open.idle = resolve));
  await closeEntry(open);
}

function closeEntry(open: Open): Promise<void> {
  return open.kind === 'file' ? open.handle.close() : open.directory.close();
}
