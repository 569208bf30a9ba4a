import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { CommandResult } from '../shared/agent-protocol/protocol.ts';
import { writeFileAtomicAsync } from './atomic-file.ts';

export const JOURNAL_DIR = 'journal';
/** Older entries are pruned: by then the control plane has long recorded the result or given up. */
export const JOURNAL_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export type JournalEntry = { id: string; kind: string; finished_at: string; outcome: CommandResult };

/**
 * At-least-once delivery, exactly-once effect: every finished command's outcome is on disk (one small
 * file each, written atomically) BEFORE it is reported, so a redelivery, even after a crash or a
 * restart, is answered from here instead of running the command again. Commands still running are
 * tracked in memory, so a redelivery of one of them does not start it a second time.
 */
export class Journal {
  readonly dir: string;
  private readonly running = new Set<string>();

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, JOURNAL_DIR);
  }

  async open(): Promise<void> {
    await fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
  }

  /** The recorded outcome of a finished command, or null. */
  async get(id: string): Promise<JournalEntry | null> {
    let text: string;
    try {
      text = await fs.promises.readFile(this.fileOf(id), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    const entry = JSON.parse(text) as JournalEntry;
    // Names are hashes: a (theoretical) collision must not answer for another command.
    return entry.id === id ? entry : null;
  }

  async record(id: string, kind: string, outcome: CommandResult, finishedAt: Date = new Date()): Promise<JournalEntry> {
    const entry: JournalEntry = { id, kind, finished_at: finishedAt.toISOString(), outcome };
    await writeFileAtomicAsync(this.fileOf(id), JSON.stringify(entry), 0o600);
    return entry;
  }

  /** Claims a command for running; false when it is running already. */
  begin(id: string): boolean {
    if (this.running.has(id)) return false;
    this.running.add(id);
    return true;
  }

  end(id: string): void {
    this.running.delete(id);
  }

  isRunning(id: string): boolean {
    return this.running.has(id);
  }

  runningIds(): string[] {
    return [...this.running];
  }

  /** Removes entries finished more than `maxAgeMs` ago (and temp files a crash left); returns how many. */
  async prune(maxAgeMs: number = JOURNAL_RETENTION_MS, now: number = Date.now()): Promise<number> {
    let names: string[];
    try {
      names = await fs.promises.readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    let removed = 0;
    for (const name of names) {
      const file = path.join(this.dir, name);
      try {
        const stat = await fs.promises.stat(file);
        const stale = name.endsWith('.tmp') ? now - stat.mtimeMs > 60 * 60 * 1000 : now - stat.mtimeMs > maxAgeMs;
        if (stale) {
          await fs.promises.rm(file, { force: true });
          removed += 1;
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    return removed;
  }

  /** Command ids are up to 200 arbitrary characters: the file is named by their hash. */
  private fileOf(id: string): string {
    return path.join(this.dir, `${createHash('sha256').update(id).digest('hex')}.json`);
  }
}
