import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Writes a whole file or nothing: a temporary file beside it, flushed to disk, then renamed over the
 * target (and the directory flushed), so a crash or power cut leaves the old content or the new one.
 */
export async function writeFileAtomicAsync(file: string, content: string | Buffer, mode = 0o600): Promise<void> {
  const temp = tempNameFor(file);
  const handle = await fs.promises.open(temp, 'wx', mode);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await fs.promises.rename(temp, file);
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(path.dirname(file));
}

export function writeFileAtomic(file: string, content: string | Buffer, mode = 0o600): void {
  const temp = tempNameFor(file);
  const fd = fs.openSync(temp, 'wx', mode);
  try {
    fs.writeFileSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, file);
  const dir = fs.openSync(path.dirname(file), 'r');
  try {
    fs.fsyncSync(dir);
  } finally {
    fs.closeSync(dir);
  }
}

/** A hidden name in the same directory (rename is atomic only within one filesystem). */
export function tempNameFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await fs.promises.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
