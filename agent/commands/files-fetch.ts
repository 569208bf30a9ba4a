import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { Writable } from 'node:stream';
import { CommandFailure } from './failure.ts';
import type { Handlers, Payload } from './types.ts';
import { tempNameFor } from '../atomic-file.ts';
import { ControlPlaneError } from '../protocol-client.ts';
import { at, type Directory } from '../runtime/anchored.ts';
import { openParentInside } from '../runtime/data-dir.ts';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = fs.constants;

/**
 * A customer's upload (a plugin or theme zip) from the control plane to the node: streamed to a
 * temporary file beside the target while it is hashed, checked against the size and SHA-256 the
 * command names, then renamed into place. Nothing but a verified file ever appears at `path`.
 */
export const fileFetchCommands = {
  'files.fetch': async (payload, ctx) => {
    // Everything happens through the parent directory's descriptor: no directory on the way is
    // followed, and the rename below replaces a symlink at the target, never writes through it.
    const { parent, name } = (await openParentInside(ctx.dataDir, payload.path, { create: 0o755 }))!;
    try {
      return await fetchInto(payload, ctx, parent, name);
    } finally {
      await parent.close();
    }
  },
} satisfies Partial<Handlers>;

type FetchContext = Parameters<Handlers['files.fetch']>[1];

async function fetchInto(payload: Payload<'files.fetch'>, ctx: FetchContext, parent: Directory, name: string) {
  if ((await digestOf(at(parent, name), payload.size_bytes)) === payload.sha256) {
    await chmodFile(at(parent, name), payload.mode);
    ctx.log('info', `${payload.path} already holds upload ${payload.upload_id}: not downloaded again`);
    return { path: payload.path, bytes: payload.size_bytes, sha256: payload.sha256 };
  }
  const temp = tempNameFor(name);
  const handle = await fs.promises.open(at(parent, temp), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, payload.mode);
  let open = true;
  try {
    const received = await download(payload, ctx, handle);
    await handle.chmod(payload.mode);
    await handle.close();
    open = false;
    try {
      await fs.promises.rename(at(parent, temp), at(parent, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EISDIR') throw new CommandFailure(`${payload.path} is a directory`, { permanent: true });
      throw error;
    }
    ctx.log('info', `fetched upload ${payload.upload_id} (${received.bytes} bytes) to ${payload.path}`);
    return { path: payload.path, ...received };
  } catch (error) {
    if (open) await handle.close().catch(() => undefined);
    await fs.promises.rm(at(parent, temp), { force: true });
    throw error;
  }
}

/** Streams the upload into `handle`, hashing as it goes; the size and digest must be the command's. */
async function download(payload: Payload<'files.fetch'>, ctx: FetchContext, handle: fs.promises.FileHandle): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  let percent = -1;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      // more than announced: stop at once rather than fill the disk with it
      if (bytes > payload.size_bytes) return done(sizeMismatch(payload, `more than ${payload.size_bytes} bytes`));
      hash.update(chunk);
      const now = Math.floor((bytes * 100) / payload.size_bytes);
      if (now !== percent) ctx.progress((percent = now));
      handle.write(chunk).then(() => done(), done);
    },
    final(done) {
      handle.sync().then(() => done(), done);
    },
  });
  try {
    await ctx.download(`/uploads/${payload.upload_id}`, sink, ctx.signal);
  } catch (error) {
    throw downloadFailure(error, payload, ctx.signal);
  }
  if (bytes !== payload.size_bytes) throw sizeMismatch(payload, `${bytes} bytes`);
  const sha256 = hash.digest('hex');
  if (sha256 !== payload.sha256) {
    throw new CommandFailure(
      `upload ${payload.upload_id} does not match: SHA-256 ${sha256} received, ${payload.sha256} expected; nothing was written to ${payload.path}`,
      { permanent: true },
    );
  }
  return { bytes, sha256 };
}

function sizeMismatch(payload: Payload<'files.fetch'>, received: string): CommandFailure {
  return new CommandFailure(
    `upload ${payload.upload_id} does not match: ${received} received, ${payload.size_bytes} expected; nothing was written to ${payload.path}`,
    { permanent: true },
  );
}

/** A refusal (404: no such upload, expired, or no unfinished files.fetch names it) is final; the wire's trouble is not. */
function downloadFailure(error: unknown, payload: Payload<'files.fetch'>, signal: AbortSignal): unknown {
  if (error instanceof CommandFailure) return error;
  if (signal.aborted) return new CommandFailure(`the download of upload ${payload.upload_id} stopped before it finished`);
  if (error instanceof ControlPlaneError) {
    return new CommandFailure(`downloading upload ${payload.upload_id} failed: ${error.message}`, { permanent: error.kind === 'rejected' });
  }
  return error;
}

/** The SHA-256 of a regular file of the given size at `file` (never through a link), else null. */
async function digestOf(file: string, size: number): Promise<string | null> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'EISDIR') return null;
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size !== size) return null;
    const hash = createHash('sha256');
    for await (const chunk of handle.createReadStream({ autoClose: false })) hash.update(chunk as Buffer);
    return hash.digest('hex');
  } finally {
    await handle.close();
  }
}

async function chmodFile(file: string, mode: number): Promise<void> {
  const handle = await fs.promises.open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  try {
    await handle.chmod(mode);
  } finally {
    await handle.close();
  }
}
