import fs from 'node:fs';
import path from 'node:path';
import type { SftpUserEntry } from '../../shared/agent-protocol/commands.ts';
import { writeFileAtomicAsync } from '../atomic-file.ts';

/** Where the agent keeps its SFTP users, inside its data directory (commands cannot reach it). */
export const SFTP_DIR = 'sftp';
const USERS_FILE = 'users.json';

type Stored = { version: 1; users: SftpUserEntry[]; revoked: Array<{ id: number; username: string; at: string }> };

/**
 * The SFTP users this node serves, as the control plane pushed them, on disk (written whole and
 * atomically, so a restart keeps them). A removed user leaves a tombstone (its id and name), since
 * a put and a remove of one user may reach the node in either order: once removed, never served.
 * Changes are applied one at a time, in the order they are asked.
 */
export class SftpUserStore {
  private readonly file: string;
  private users = new Map<string, SftpUserEntry>();
  private revokedIds = new Set<number>();
  private revokedNames = new Set<string>();
  private revoked: Stored['revoked'] = [];
  private queue: Promise<unknown> = Promise.resolve();

  constructor(dataDir: string) {
    this.file = path.join(dataDir, SFTP_DIR, USERS_FILE);
  }

  load(): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    let stored: Stored = { version: 1, users: [], revoked: [] };
    try {
      stored = JSON.parse(fs.readFileSync(this.file, 'utf8')) as Stored;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        throw new Error(`cannot read the SFTP users ${this.file}: ${(error as Error).message}`, { cause: error });
    }
    this.revoked = stored.revoked;
    this.revokedIds = new Set(stored.revoked.map((entry) => entry.id));
    this.revokedNames = new Set(stored.revoked.map((entry) => entry.username));
    this.users = new Map(stored.users.map((user) => [user.username, user]));
  }

  /** The user of that name, unless unknown or revoked. */
  find(username: string): SftpUserEntry | undefined {
    return this.users.get(username);
  }

  isServed(user: SftpUserEntry): boolean {
    return this.users.get(user.username)?.id === user.id;
  }

  /**
   * Adds or replaces users; revoked ones are refused (their names returned). `replaced` lists the
   * ids of users served before whose entry changed (credentials, name or jail): their open sessions
   * were opened under the old ones and must be cut.
   */
  put(entries: readonly SftpUserEntry[]): Promise<{ written: number; refused: string[]; replaced: number[] }> {
    return this.serially(async () => {
      const outcome = this.putNow(entries);
      await this.save();
      return outcome;
    });
  }

  private putNow(entries: readonly SftpUserEntry[]): { written: number; refused: string[]; replaced: number[] } {
    const refused: string[] = [];
    const replaced: number[] = [];
    let written = 0;
    for (const entry of entries) {
      if (this.revokedIds.has(entry.id) || this.revokedNames.has(entry.username)) {
        refused.push(entry.username);
        continue;
      }
      for (const [name, user] of this.users) {
        if (user.id !== entry.id) continue;
        if (JSON.stringify(user) !== JSON.stringify(entry)) replaced.push(entry.id);
        if (name !== entry.username) this.users.delete(name);
      }
      this.users.set(entry.username, entry);
      written += 1;
    }
    return { written, refused, replaced };
  }

  /** Revokes users for good; returns those that were being served. */
  remove(entries: ReadonlyArray<{ id: number; username: string }>): Promise<SftpUserEntry[]> {
    return this.serially(async () => {
      const removed = this.removeNow(entries);
      await this.save();
      return removed;
    });
  }

  private removeNow(entries: ReadonlyArray<{ id: number; username: string }>): SftpUserEntry[] {
    const removed: SftpUserEntry[] = [];
    for (const entry of entries) {
      for (const [name, user] of this.users) {
        if (user.id === entry.id || name === entry.username) {
          this.users.delete(name);
          removed.push(user);
        }
      }
      if (!this.revokedIds.has(entry.id)) {
        this.revokedIds.add(entry.id);
        this.revokedNames.add(entry.username);
        this.revoked.push({ id: entry.id, username: entry.username, at: new Date().toISOString() });
      }
    }
    return removed;
  }

  /**
   * The control plane's whole set (a reconciliation): revoked ones removed for good, `entries` put,
   * and any other user served whose id is not in `keepIds` dropped without a tombstone (a user whose
   * push failed may be pushed again later; one the records no longer have on this node is not
   * served). `cut` lists the ids whose open sessions must end (replaced or removed).
   */
  sync(
    entries: readonly SftpUserEntry[],
    revoked: ReadonlyArray<{ id: number; username: string }>,
    keepIds: readonly number[],
  ): Promise<{ written: number; refused: string[]; removed: number; cut: number[] }> {
    return this.serially(async () => {
      const removed = this.removeNow(revoked);
      const wanted = new Set([...entries.map((entry) => entry.id), ...keepIds]);
      for (const [name, user] of this.users) {
        if (wanted.has(user.id)) continue;
        this.users.delete(name);
        removed.push(user);
      }
      const { written, refused, replaced } = this.putNow(entries);
      await this.save();
      return { written, refused, removed: removed.length, cut: [...replaced, ...removed.map((user) => user.id)] };
    });
  }

  private serially<T>(change: () => Promise<T>): Promise<T> {
    const next = this.queue.then(change, change);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async save(): Promise<void> {
    const stored: Stored = { version: 1, users: [...this.users.values()], revoked: this.revoked };
    await writeFileAtomicAsync(this.file, `${JSON.stringify(stored)}\n`, 0o600);
  }
}
