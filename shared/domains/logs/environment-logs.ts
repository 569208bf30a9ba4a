import type { Db } from '../../db/knex.ts';
import type { EnvironmentLogFile, LogsRequest } from '../../agent-protocol/protocol.ts';
import { ValidationFailed } from '../../errors.ts';
import { decodeLogCursor, encodeLogCursor } from './log-cursor.ts';
import { lineTime } from './log-times.ts';

const TABLE = 'environment_log_lines';
/** Retention (docs/api/logs.md): a week, and at most this many lines per environment and file. */
export const LOG_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
export const LOG_LINES_KEPT = 100_000;
export const LOG_PAGE_MAX_LINES = 1000;

export type LogLine = { id: number; time: Date; line: string };

/** The topic a stored batch publishes for each environment it added lines to (the live tails wait on it). */
export const environmentLogsTopic = (environmentId: number) => `environment-logs:${environmentId}`;

/**
 * Stores a node's batch: only the lines of environments that node hosts (another node's, or an
 * environment gone, are dropped and counted). A batch seen before stores nothing again: each line
 * is keyed by (batch_id, its position in the batch).
 */
export async function storeLogBatch(db: Db, nodeId: string, batch: LogsRequest): Promise<{ stored: number; dropped: number; environmentIds: number[] }> {
  const ids = [...new Set(batch.files.map((entry) => entry.environment_id))];
  const hosted = new Set<number>(ids.length === 0 ? [] : (await db('environments').whereIn('id', ids).where({ node_id: nodeId }).pluck('id')).map(Number));
  const readAt = new Date(batch.read_at);
  const rows: Array<{ environment_id: number; file: EnvironmentLogFile; time: Date; line: string; batch_id: string; seq: number }> = [];
  let dropped = 0;
  let seq = 0;
  for (const entry of batch.files) {
    for (const line of entry.lines) {
      seq += 1;
      if (!hosted.has(entry.environment_id)) {
        dropped += 1;
        continue;
      }
      // Postgres text holds no NUL byte: a binary line is kept readable rather than refused
      rows.push({
        environment_id: entry.environment_id,
        file: entry.file,
        time: lineTime(entry.file, line, readAt),
        line: line.replaceAll('\0', '\uFFFD'),
        batch_id: batch.batch_id,
        seq,
      });
    }
  }
  let stored = 0;
  const touched = new Set<number>();
  for (let start = 0; start < rows.length; start += 1000) {
    const inserted: Array<{ environment_id: number }> = await db(TABLE)
      .insert(rows.slice(start, start + 1000))
      .onConflict(['batch_id', 'seq'])
      .ignore()
      .returning('environment_id');
    stored += inserted.length;
    for (const row of inserted) touched.add(row.environment_id);
  }
  return { stored, dropped, environmentIds: [...touched] };
}

export type LogQuery = {
  file: EnvironmentLogFile;
  lines: number;
  since?: Date | undefined;
  until?: Date | undefined;
  search?: string | undefined;
  cursor?: string | undefined;
};

/** `search` as a LIKE pattern that matches it literally (its %, _ and \ escaped). */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** A page of an environment's log, newest first; `next_cursor` reads the older lines after it. */
export async function readLogLines(db: Db, environmentId: number, query: LogQuery): Promise<{ lines: LogLine[]; next_cursor: string | null }> {
  if (query.since && query.until && query.since >= query.until) throw ValidationFailed.field('until', 'must be after since');
  const cursor = query.cursor === undefined ? undefined : decodeLogCursor(query.cursor);
  const builder = db(TABLE).where({ environment_id: environmentId, file: query.file });
  if (query.since) builder.where('time', '>=', query.since);
  if (query.until) builder.where('time', '<', query.until);
  if (query.search) builder.whereRaw("line ILIKE ? ESCAPE '\\'", [likePattern(query.search)]);
  if (cursor) builder.whereRaw('(time, id) < (?, ?)', [cursor.time, cursor.id]);
  const rows: LogLine[] = await builder
    .orderBy([
      { column: 'time', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(query.lines + 1)
    .select('id', 'time', 'line');
  const page = rows.slice(0, query.lines).map((row) => ({ ...row, id: Number(row.id) }));
  const last = page.at(-1);
  return { lines: page, next_cursor: rows.length > query.lines && last ? encodeLogCursor({ time: last.time, id: last.id }) : null };
}

/** Lines stored after `afterId` (in the order they were stored), for the live tail. */
export async function logLinesAfter(db: Db, environmentId: number, file: EnvironmentLogFile, afterId: number, limit = 500): Promise<LogLine[]> {
  const rows: LogLine[] = await db(TABLE)
    .where({ environment_id: environmentId, file })
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .select('id', 'time', 'line');
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** The newest line's id (0 for none): a tail without a resume point starts after it. */
export async function latestLogLineId(db: Db, environmentId: number, file: EnvironmentLogFile): Promise<number> {
  const row = await db(TABLE).where({ environment_id: environmentId, file }).max('id as id').first();
  return Number(row?.id ?? 0);
}

/**
 * Retention: lines older than LOG_RETENTION_MS, and past the newest LOG_LINES_KEPT of their
 * environment and file. Returns how many were deleted.
 */
export async function pruneEnvironmentLogs(db: Db, now = new Date(), kept = LOG_LINES_KEPT): Promise<number> {
  let deleted = await db(TABLE)
    .where('time', '<', new Date(now.getTime() - LOG_RETENTION_MS))
    .delete();
  const crowded: Array<{ environment_id: number; file: string }> = await db(TABLE)
    .groupBy('environment_id', 'file')
    .havingRaw('count(*) > ?', [kept])
    .select('environment_id', 'file');
  for (const { environment_id, file } of crowded) {
    const newest = db(TABLE)
      .where({ environment_id, file })
      .orderBy([
        { column: 'time', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(kept)
      .select('id');
    deleted += await db(TABLE).where({ environment_id, file }).whereNotIn('id', newest).delete();
  }
  return deleted;
}
