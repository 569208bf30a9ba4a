import fs from 'node:fs';
import ssh2, { type Attributes, type SFTPWrapper } from 'ssh2';
import type { Logger } from '../../shared/logger.ts';
import { at, pathOf } from '../runtime/anchored.ts';
import { SessionHandles, unused, type Open } from './handles.ts';
import { attributesOf, longName } from './attributes.ts';
import { assertSymlinkTarget, denied, failure, Jail, jailParts, refusalOf, shownPath, SftpRefusal } from './jail.ts';
import { SFTP_LIMITS } from './limits.ts';
import { permits } from './access.ts';

const { STATUS_CODE, OPEN_MODE } = ssh2.utils.sftp;
const { O_RDONLY, O_WRONLY, O_RDWR, O_APPEND, O_CREAT, O_EXCL, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK } = fs.constants;

/**
 * Answers ssh2 holds for the client because its window is shut. ssh2's server methods do not say
 * whether they had to buffer, so its queue (`_buffer`, not in its types) is read.
 */
function bufferedAnswers(sftp: SFTPWrapper): number {
  const buffer = (sftp as unknown as { _buffer?: unknown[] })._buffer;
  return Array.isArray(buffer) ? buffer.length : 0;
}

/** Directory entries per READDIR answer. */
const READDIR_BATCH = 100;
/** Mode bits a client may set: no setuid or setgid on the site's files. */
const SETTABLE_MODE = 0o1777;

export type SessionUser = { username: string; root: string; uid: number; gid: number };

function openFlags(pflags: number): number {
  const access = pflags & OPEN_MODE.READ && pflags & OPEN_MODE.WRITE ? O_RDWR : pflags & OPEN_MODE.WRITE ? O_WRONLY : O_RDONLY;
  let flags = access | O_NOFOLLOW | O_NONBLOCK;
  if (pflags & OPEN_MODE.APPEND) flags |= O_APPEND;
  if (pflags & OPEN_MODE.CREAT) flags |= O_CREAT;
  // O_TRUNC is applied after the permission check (openFile), not by open(2) as root
  if (pflags & OPEN_MODE.EXCL) flags |= O_EXCL;
  return flags;
}

/**
 * One SFTP session of a user: every request resolved inside its jail (./jail.ts), files and
 * directories it creates owned by the site's uid and gid (the PHP in the container reads and writes
 * them as that user). The agent runs as root, so the jail, not the kernel's permission check, is
 * what confines the user; modes are kept as the client sets them, less setuid and setgid.
 */
export class SftpSession {
  private readonly jail: Jail;
  private readonly handles = new SessionHandles(() => this.revoked);
  /** Set once the user is revoked or its credentials change: every request is refused from then on. */
  private revoked = false;
  /** Requests being worked on. */
  private inFlight = 0;

  private readonly sftp: SFTPWrapper;
  private readonly user: SessionUser;
  private readonly logger: Logger;

  private readonly stillServed: () => boolean;

  /** `stillServed` is asked before each request (the user may be revoked while its session lives). */
  constructor(sftp: SFTPWrapper, user: SessionUser, dataDir: string, logger: Logger, stillServed: () => boolean) {
    this.sftp = sftp;
    this.user = user;
    this.logger = logger;
    this.stillServed = stillServed;
    this.jail = new Jail(dataDir, user.root);
    this.listen();
    // the client's EOF ends the session (as OpenSSH's sftp-server exits on it): close the channel, or the client waits for ever
    sftp.on('end', () => this.reply(() => sftp.end()));
    // a closed channel serves nothing more: a handle opened meanwhile is closed, not kept
    sftp.on('close', () => void this.revoke());
  }

  /**
   * The user was revoked or its credentials changed: no request is served any more and every
   * handle is closed (the server destroys the connection too, but ssh2 would go on parsing what
   * the client already sent).
   */
  revoke(): Promise<void> {
    this.revoked = true;
    return this.handles.closeAll();
  }

  private listen(): void {
    const { sftp } = this;
    // each ssh2 request event has its own argument list; the handlers below name theirs
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const on = (event: string, handler: (id: number, ...args: any[]) => Promise<void>) => {
      sftp.on(
        event as 'OPEN',
        ((id: number, ...args: unknown[]) => {
          if (this.revoked || !this.stillServed()) {
            if (!this.revoked) void this.revoke(); // revoked in the store before the server cut us: close the handles now
            return this.reply(() => sftp.status(id, STATUS_CODE.PERMISSION_DENIED, 'access revoked'));
          }
          if (bufferedAnswers(sftp) > SFTP_LIMITS.bufferedAnswers) {
            // the client sends without reading our answers (its window stays shut): they would pile up in memory
            this.logger.warn({ username: this.user.username }, 'sftp session closed: the client does not read its answers');
            void this.revoke();
            return this.reply(() => sftp.destroy());
          }
          if (this.inFlight >= SFTP_LIMITS.requestsInFlight)
            return this.reply(() => sftp.status(id, STATUS_CODE.FAILURE, `too many requests at once (at most ${SFTP_LIMITS.requestsInFlight})`));
          this.inFlight += 1;
          handler(id, ...args)
            .catch((error: unknown) => {
              const refusal = error instanceof SftpRefusal ? error : refusalOf(error, 'request');
              if (!(error instanceof SftpRefusal))
                this.logger.debug({ username: this.user.username, event, error: (error as Error).message }, 'sftp request failed');
              this.reply(() => sftp.status(id, refusal.code, refusal.message));
            })
            .finally(() => (this.inFlight -= 1));
        }) as never,
      );
    };
    on('REALPATH', async (id, requested: string) => {
      const shown = shownPath(jailParts(requested));
      this.reply(() => sftp.name(id, [{ filename: shown, longname: shown, attrs: {} as Attributes }]));
    });
    on('STAT', (id, requested: string) => this.stat(id, requested, false));
    on('LSTAT', (id, requested: string) => this.stat(id, requested, true));
    on('FSTAT', (id, handle: Buffer) =>
      this.handles.using(handle, async (open) => {
        const stats = open.kind === 'file' ? await open.handle.stat() : await open.directory.stat();
        this.reply(() => sftp.attrs(id, attributesOf(stats)));
      }),
    );
    on('OPEN', (id, requested: string, pflags: number, attrs: Attributes) =>
      this.handles.reserving(requested, () => this.openFile(id, requested, pflags, attrs)),
    );
    on('READ', (id, handle: Buffer, offset: number, length: number) =>
      this.handles.using(handle, async (open) => {
        if (open.kind !== 'file') throw failure(open.shown, 'is a directory handle');
        const buffer = Buffer.alloc(Math.max(0, Math.min(length, SFTP_LIMITS.readBytes)));
        const { bytesRead } = await open.handle.read(buffer, 0, buffer.length, offset);
        if (bytesRead === 0) return this.reply(() => sftp.status(id, STATUS_CODE.EOF));
        this.reply(() => sftp.data(id, buffer.subarray(0, bytesRead)));
      }),
    );
    on('WRITE', (id, handle: Buffer, offset: number, data: Buffer) =>
      this.handles.using(handle, async (open) => {
        if (open.kind !== 'file') throw failure(open.shown, 'is a directory handle');
        let written = 0;
        while (written < data.length) written += (await open.handle.write(data, written, data.length - written, offset + written)).bytesWritten;
        this.ok(id);
      }),
    );
    on('FSETSTAT', (id, handle: Buffer, attrs: Attributes) =>
      this.handles.using(handle, async (open) => {
        await this.setAttributes(open.kind === 'file' ? open.handle : open.directory, attrs);
        this.ok(id);
      }),
    );
    on('SETSTAT', (id, requested: string, attrs: Attributes) => this.setStat(id, requested, attrs));
    on('CLOSE', async (id, handle: Buffer) => {
      await this.handles.close(handle);
      this.ok(id);
    });
    on('OPENDIR', (id, requested: string) =>
      this.handles.reserving(requested, async () => {
        const parts = jailParts(requested);
        const directory = await this.jail.openDirectory(parts);
        const registered = await this.handles.register({ kind: 'dir', directory, shown: shownPath(parts), names: null, ...unused });
        this.reply(() => sftp.handle(id, registered));
      }),
    );
    on('READDIR', (id, handle: Buffer) => this.handles.using(handle, (open) => this.readDirectory(id, open)));
    on('REMOVE', async (id, requested: string) => {
      await this.jail.withParent(jailParts(requested), async (parent, _name, target) => {
        await this.requireWritable(parent, jailParts(requested));
        if ((await fs.promises.lstat(target)).isDirectory()) throw failure(shownPath(jailParts(requested)), 'is a directory (use rmdir)');
        await fs.promises.unlink(target);
      });
      this.ok(id);
    });
    on('MKDIR', async (id, requested: string, attrs: Attributes) => {
      await this.jail.withParent(jailParts(requested), async (parent, _name, target) => {
        await this.requireWritable(parent, jailParts(requested));
        await fs.promises.mkdir(target, { mode: 0o755 });
        const made = await fs.promises.open(target, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
        try {
          await made.chown(this.user.uid, this.user.gid);
          await made.chmod(typeof attrs?.mode === 'number' ? attrs.mode & SETTABLE_MODE : 0o755);
        } finally {
          await made.close();
        }
      });
      this.ok(id);
    });
    on('RMDIR', async (id, requested: string) => {
      await this.jail.withParent(jailParts(requested), async (parent, _name, target) => {
        await this.requireWritable(parent, jailParts(requested));
        await fs.promises.rmdir(target);
      });
      this.ok(id);
    });
    on('RENAME', async (id, from: string, to: string) => {
      const [fromParts, toParts] = [jailParts(from), jailParts(to)];
      await this.jail.withParent(fromParts, async (sourceParent, _n, source) => {
        await this.requireWritable(sourceParent, fromParts);
        return this.jail.withParent(toParts, async (targetParent, _m, target) => {
          await this.requireWritable(targetParent, toParts);
          // SFTP v3: a rename never replaces what is there
          if (
            await fs.promises.lstat(target).then(
              () => true,
              () => false,
            )
          )
            throw failure(shownPath(toParts), 'exists already');
          await fs.promises.rename(source, target);
        });
      });
      this.ok(id);
    });
    on('READLINK', async (id, requested: string) => {
      const target = await this.jail.withParent(jailParts(requested), (_parent, _name, link) => fs.promises.readlink(link));
      this.reply(() => sftp.name(id, [{ filename: target, longname: target, attrs: {} as Attributes }]));
    });
    on('SYMLINK', (id, linkPath: string, targetPath: string) => this.symlink(id, linkPath, targetPath));
  }

  private async stat(id: number, requested: string, link: boolean): Promise<void> {
    const parts = jailParts(requested);
    const stats = await this.jail.lstat(parts);
    // nothing is followed: a symlink is described by LSTAT, and STAT through it is refused
    if (!link && stats.isSymbolicLink()) throw denied(shownPath(parts), 'is a symlink (never followed)');
    this.reply(() => this.sftp.attrs(id, attributesOf(stats)));
  }

  private async openFile(id: number, requested: string, pflags: number, attrs: Attributes): Promise<void> {
    const parts = jailParts(requested);
    const writes = (pflags & OPEN_MODE.WRITE) !== 0;
    const mode = typeof attrs?.mode === 'number' ? attrs.mode & SETTABLE_MODE & 0o777 : 0o644;
    const handle = await this.jail.withParent(parts, async (parent, _name, target) => {
      const existed = await fs.promises.lstat(target).then(
        () => true,
        () => false,
      );
      if (!existed) await this.requireWritable(parent, parts);
      const opened = await fs.promises.open(target, openFlags(pflags), mode);
      try {
        const stats = await opened.stat();
        if (!stats.isFile()) throw failure(shownPath(parts), stats.isDirectory() ? 'is a directory' : 'is not a regular file');
        if (existed) {
          // checked on the file opened, not on a path that may have changed since
          if ((pflags & OPEN_MODE.READ && !permits(stats, this.user, 'read')) || (writes && !permits(stats, this.user, 'write')))
            throw denied(shownPath(parts), 'is not yours to ' + (writes ? 'write' : 'read'));
        } else if (stats.uid !== this.user.uid || stats.gid !== this.user.gid) {
          await opened.chown(this.user.uid, this.user.gid); // made by this open: the site's, as if it made it
        }
        if (pflags & OPEN_MODE.TRUNC && writes) await opened.truncate(0);
        return opened;
      } catch (error) {
        await opened.close();
        throw error;
      }
    });
    const registered = await this.handles.register({ kind: 'file', handle, shown: shownPath(parts), ...unused });
    this.reply(() => this.sftp.handle(id, registered));
  }

  /** Lists through `/proc/self/fd/N` paths: `using` keeps N open (not reused by another open) meanwhile. */
  private async readDirectory(id: number, open: Open): Promise<void> {
    if (open.kind !== 'dir') throw failure(open.shown, 'is not a directory handle');
    open.names ??= ['.', '..', ...(await fs.promises.readdir(pathOf(open.directory)))];
    if (open.names.length === 0) return this.reply(() => this.sftp.status(id, STATUS_CODE.EOF));
    const batch = open.names.splice(0, READDIR_BATCH);
    const entries: Array<{ filename: string; longname: string; attrs: Attributes }> = [];
    for (const name of batch) {
      const stats = await fs.promises.lstat(name === '.' || name === '..' ? pathOf(open.directory) : at(open.directory, name)).catch(() => null);
      if (stats) entries.push({ filename: name, longname: longName(name, stats), attrs: attributesOf(stats) });
    }
    this.reply(() => this.sftp.name(id, entries));
  }

  private async setStat(id: number, requested: string, attrs: Attributes): Promise<void> {
    const parts = jailParts(requested);
    const target =
      parts.length === 0
        ? await this.jail.openDirectory([])
        : await this.jail.withParent(parts, async (_parent, _name, where) => {
            const stats = await fs.promises.lstat(where);
            if (stats.isSymbolicLink()) throw denied(shownPath(parts), 'is a symlink (never followed)');
            const write = attrs.size !== undefined && stats.isFile();
            return fs.promises.open(where, (stats.isDirectory() ? O_RDONLY | O_DIRECTORY : write ? O_WRONLY : O_RDONLY) | O_NOFOLLOW | O_NONBLOCK);
          });
    try {
      await this.setAttributes(target, attrs);
    } catch (error) {
      throw refusalOf(error, shownPath(parts));
    } finally {
      await target.close();
    }
    this.ok(id);
  }

  /** A change inside a directory (create, remove, rename, link) needs write permission on it. */
  private async requireWritable(directory: fs.promises.FileHandle, parts: readonly string[]): Promise<void> {
    if (!permits(await directory.stat(), this.user, 'write')) throw denied(shownPath(parts), 'is in a directory that is not yours to change');
  }

  /**
   * Mode, size and times, on an open descriptor; owner changes are ignored (files stay the site's).
   * Only the owner changes modes and times, and a size needs write permission, as the kernel has it.
   */
  private async setAttributes(handle: fs.promises.FileHandle, attrs: Attributes): Promise<void> {
    const stats = await handle.stat();
    if ((typeof attrs.mode === 'number' || attrs.atime !== undefined) && stats.uid !== this.user.uid) throw denied('that file', 'is not yours to change');
    if (typeof attrs.size === 'number' && !permits(stats, this.user, 'write')) throw denied('that file', 'is not yours to write');
    if (typeof attrs.mode === 'number') await handle.chmod(attrs.mode & SETTABLE_MODE);
    if (typeof attrs.size === 'number') await handle.truncate(attrs.size);
    if (attrs.atime !== undefined && attrs.mtime !== undefined) await handle.utimes(attrs.atime, attrs.mtime);
  }

  /** A symlink whose target stays inside the jail (see assertSymlinkTarget). The server never follows links itself either way. */
  private async symlink(id: number, linkPath: string, targetPath: string): Promise<void> {
    const parts = jailParts(linkPath);
    assertSymlinkTarget(targetPath, shownPath(parts));
    await this.jail.withParent(parts, async (parent, _name, link) => {
      await this.requireWritable(parent, parts);
      await fs.promises.symlink(targetPath, link);
      await fs.promises.lchown(link, this.user.uid, this.user.gid);
    });
    this.ok(id);
  }

  private ok(id: number): void {
    this.reply(() => this.sftp.status(id, STATUS_CODE.OK));
  }

  /** An answer to a session that closed meanwhile goes nowhere. */
  private reply(send: () => unknown): void {
    try {
      send();
    } catch {
      // the channel is gone
    }
  }
}
