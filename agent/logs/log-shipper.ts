import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ENVIRONMENT_LOG_FILES, LOG_BATCH_MAX_BYTES } from '../../shared/agent-protocol/constants.ts';
import type { LogsRequest } from '../../shared/agent-protocol/protocol.ts';
import { NODE_SITES_DIR, environmentKeyPattern, environmentLogPaths } from '../../shared/agent-protocol/log-files.ts';
import type { Logger } from '../../shared/logger.ts';
import { sleep } from '../backoff.ts';
import type { ControlPlaneLink } from '../link.ts';
import { changed, readNewLines, type FollowState } from './log-follower.ts';

/** The smallest share of a batch a grown file gets, however many grew at once. */
const MIN_SHARE_BYTES = 4096;

export type LogShipperDeps = {
  dataDir: string;
  intervalMs: number;
  ship: (batch: LogsRequest, signal: AbortSignal) => Promise<unknown>;
  link: ControlPlaneLink;
  logger: Logger;
};

type Pending = { batch: LogsRequest; states: Map<string, FollowState> };

/**
 * Ships the environments' logs on this node (docs/api/logs.md): every `intervalMs` it stats each
 * environment's access, error and PHP log, and only when one grew reads the new complete lines (at
 * most LOG_BATCH_MAX_BYTES a batch, shared between the files that grew) and posts them. An idle node
 * sends nothing. A batch that was not answered is sent again, same id, before anything new is read
 * (the control plane stores it once). Files there when the agent starts are followed from their end;
 * files that appear later from their start.
 */
export class LogShipper {
  private readonly deps: LogShipperDeps;
  private readonly states = new Map<string, FollowState>();
  private pending: Pending | null = null;
  private started = false;
  private readonly stopping = new AbortController();
  private loop: Promise<void> = Promise.resolve();

  constructor(deps: LogShipperDeps) {
    this.deps = deps;
  }

  start(): void {
    if (this.deps.intervalMs <= 0) return;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.loop;
  }

  private async run(): Promise<void> {
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      try {
        await this.tick(signal);
      } catch (error) {
        if (signal.aborted) break;
        if (this.deps.link.down(error) === 'rejected' && this.pending) {
          // refused for what it is (not for the link): sending it again would be refused again
          this.deps.logger.warn({ error: (error as Error).message, batch_id: this.pending.batch.batch_id }, 'log batch refused by the control plane: dropped');
          for (const [relative, state] of this.pending.states) this.states.set(relative, state);
          this.pending = null;
        }
      }
      await sleep(this.deps.intervalMs, signal);
    }
  }

  /** One look at the files (and one post at most). */
  async tick(signal: AbortSignal = this.stopping.signal): Promise<void> {
    if (this.pending) {
      await this.send(this.pending, signal);
      return;
    }
    const files = await this.files();
    const grown: Array<{ relative: string; environmentId: number; file: (typeof ENVIRONMENT_LOG_FILES)[number] }> = [];
    const seen = new Set<string>();
    for (const entry of files) {
      seen.add(entry.relative);
      const state = this.states.get(entry.relative);
      const stat = await changed(path.join(this.deps.dataDir, entry.relative), state);
      if (!stat) continue;
      if (!this.started) {
        // there before the agent started: what it holds was shipped by an earlier agent, or is old
        this.states.set(entry.relative, { dev: stat.dev, ino: stat.ino, offset: stat.size });
        continue;
      }
      grown.push(entry);
    }
    this.started = true;
    for (const relative of this.states.keys()) if (!seen.has(relative)) this.states.delete(relative);
    if (grown.length === 0) return;

    const share = Math.max(MIN_SHARE_BYTES, Math.floor(LOG_BATCH_MAX_BYTES / grown.length));
    const states = new Map<string, FollowState>();
    const batchFiles: LogsRequest['files'] = [];
    let budget = LOG_BATCH_MAX_BYTES;
    for (const entry of grown) {
      if (budget <= 0) break;
      const read = await readNewLines(path.join(this.deps.dataDir, entry.relative), this.states.get(entry.relative), Math.min(share, budget));
      if (!read) continue;
      states.set(entry.relative, read.state);
      budget -= read.bytes;
      const lines = read.lines.filter((line) => line.length > 0);
      if (lines.length > 0) batchFiles.push({ environment_id: entry.environmentId, file: entry.file, lines });
    }
    if (batchFiles.length === 0) {
      for (const [relative, state] of states) this.states.set(relative, state);
      return;
    }
    await this.send({ batch: { batch_id: randomUUID(), read_at: new Date().toISOString(), files: batchFiles }, states }, signal);
  }

  private async send(pending: Pending, signal: AbortSignal): Promise<void> {
    this.pending = pending;
    await this.deps.ship(pending.batch, signal);
    this.deps.link.up();
    for (const [relative, state] of pending.states) this.states.set(relative, state);
    this.pending = null;
  }

  /** Each environment's log files on this node (its directory under sites/ names it). */
  private async files(): Promise<Array<{ relative: string; environmentId: number; file: (typeof ENVIRONMENT_LOG_FILES)[number] }>> {
    const names = await fs.promises.readdir(path.join(this.deps.dataDir, NODE_SITES_DIR)).catch(() => [] as string[]);
    return names.flatMap((name) => {
      const match = environmentKeyPattern.exec(name);
      if (!match) return [];
      const paths = environmentLogPaths(name);
      return ENVIRONMENT_LOG_FILES.map((file) => ({ relative: paths[file], environmentId: Number(match[1]), file }));
    });
  }
}
