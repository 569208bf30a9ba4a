import { randomUUID } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../../db/knex.ts';
import { Node, Site, type Backup, type Environment } from '../../db/models.ts';
import { Conflict, NotFound } from '../../errors.ts';
import { findEnvironment } from '../sites/environments.ts';
import { backupStates, findBackup } from './backups.ts';

/**
 * A backup to download: the team's (another team's is NotFound), succeeded with a snapshot (else a
 * Conflict), with its environment, site and node.
 */
export async function findDownloadableBackup(
  db: Db,
  teamId: number,
  siteId: number,
  kind: string,
  backupId: string,
): Promise<{ backup: Backup & { snapshot_id: string }; environment: Environment; site: Site; node: Node }> {
  const { environment } = await findEnvironment(db, teamId, siteId, kind);
  const backup = await findBackup(db, environment, backupId);
  const state = (await backupStates(db, [backup])).get(backup.id)!;
  if (state.status !== 'succeeded' || !backup.snapshot_id) throw new Conflict(`This backup is ${state.status}: only a succeeded backup can be downloaded`);
  const site = (await Site.query(db).findById(environment.site_id))!;
  const node = await Node.query(db).findById(backup.node_id);
  if (!node) throw new Conflict('The node that holds this backup is gone');
  return { backup: backup as Backup & { snapshot_id: string }, environment, site, node };
}

/** `<site slug>-<environment>-<UTC date and time of the backup>.tar.zst`, e.g. `ann-writes-production-2026-11-24-093000.tar.zst`. */
export function exportFilename(site: Pick<Site, 'slug'>, environment: Pick<Environment, 'kind'>, backup: Pick<Backup, 'created_at'>): string {
  const stamp = backup.created_at
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace('T', '-')
    .replace(/:/g, '');
  return `${site.slug}-${environment.kind}-${stamp}.tar.zst`;
}

/** Why a download ended without its stream: the node never started (504), or failed (502). */
export class StreamFailed extends Error {
  readonly started: boolean;
  readonly timedOut: boolean;
  constructor(message: string, options: { started: boolean; timedOut?: boolean }) {
    super(message);
    this.started = options.started;
    this.timedOut = options.timedOut ?? false;
  }
}

export type ExportHandle = {
  id: string;
  /** Resolves once the last part is written and the sink ended; rejects with a StreamFailed (or the sink's error). */
  finished: Promise<void>;
  started(): boolean;
  /** Ends the export (a failed command, a client gone): the sink is left to the caller. */
  fail(error: StreamFailed): void;
};

type Entry = {
  nodeId: string;
  open: () => Writable;
  sink: Writable | null;
  nextPart: number;
  busy: boolean;
  timer: NodeJS.Timeout;
  gapMs: number;
  settle(error: Error | null): void;
};

/**
 * Where a download waits for the node's stream. An export (random id, single use) is issued for one
 * node; the agent posts the stream in parts (each a request of its own, so none outlives the
 * server's request timeout), in order, each taken once and piped into the download with
 * backpressure. No part within `startMs` (the first) or `gapMs` (the next) fails the export.
 *
 * In-process: a part posted to another API process is forwarded here by that process
 * (export-relay.ts).
 */
export class ExportStreams {
  private readonly entries = new Map<string, Entry>();

  issue(nodeId: string, options: { open: () => Writable; startMs: number; gapMs: number }): ExportHandle {
    const id = randomUUID();
    let settled = false;
    let resolveFinished!: () => void;
    let rejectFinished!: (error: Error) => void;
    const finished = new Promise<void>((resolve, reject) => {
      resolveFinished = resolve;
      rejectFinished = reject;
    });
    const entry: Entry = {
      nodeId,
      open: options.open,
      sink: null,
      nextPart: 0,
      busy: false,
      gapMs: options.gapMs,
      timer: setTimeout(
        () =>
          entry.settle(new StreamFailed(`the node did not start streaming within ${Math.round(options.startMs / 1000)} s`, { started: false, timedOut: true })),
        options.startMs,
      ),
      settle: (error) => {
        if (settled) return;
        settled = true;
        clearTimeout(entry.timer);
        this.entries.delete(id);
        if (error) rejectFinished(error);
        else resolveFinished();
      },
    };
    this.entries.set(id, entry);
    return { id, finished, started: () => entry.sink !== null, fail: (error) => entry.settle(error) };
  }

  /**
   * Relays one part the agent posts (`body`) into the download; `last` (an empty part) ends it.
   * Another node's export, an unknown or finished one: NotFound; a part out of order or while
   * another is being relayed: Conflict. Resolves once the part is relayed.
   */
  async relay(nodeId: string, id: string, part: number, last: boolean, body: Readable): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry || entry.nodeId !== nodeId) throw new NotFound('No such stream for this node');
    if (entry.busy || part !== entry.nextPart)
      throw new Conflict(`Part ${entry.nextPart} of this stream is expected${entry.busy ? ' once the one being relayed ends' : ''}, not part ${part}`);
    entry.busy = true;
    clearTimeout(entry.timer);
    const sink = (entry.sink ??= entry.open());
    try {
      if (last) {
        await new Promise<void>((resolve, reject) => sink.end((error?: Error | null) => (error ? reject(error) : resolve())));
        entry.settle(null);
        return;
      }
      await pipeline(body, sink, { end: false });
    } catch (error) {
      entry.settle(new StreamFailed(`the stream broke off in part ${part}: ${(error as Error).message}`, { started: true }));
      throw error;
    }
    entry.busy = false;
    entry.nextPart += 1;
    entry.timer = setTimeout(
      () =>
        entry.settle(new StreamFailed(`the node sent nothing for ${Math.round(entry.gapMs / 1000)} s after part ${part}`, { started: true, timedOut: true })),
      entry.gapMs,
    );
  }

  get size(): number {
    return this.entries.size;
  }
}

/** The API process's one rendezvous (the download route and the agent's stream route share it). */
export const exportStreams = new ExportStreams();
