import { ValidationFailed } from '../../errors.ts';

/** Where a page of log lines (newest first) ended: the next page starts below this line. */
export type LogCursor = { time: Date; id: number };

/** Opaque to clients: base64url of `<ISO time>|<id>`. */
export function encodeLogCursor(cursor: LogCursor): string {
  return Buffer.from(`${cursor.time.toISOString()}|${cursor.id}`).toString('base64url');
}

export function decodeLogCursor(value: string): LogCursor {
  const [time = '', id = '', ...rest] = Buffer.from(value, 'base64url').toString('utf8').split('|');
  const date = new Date(time);
  if (rest.length > 0 || !/^\d{1,18}$/.test(id) || !/^\d{4}-\d{2}-\d{2}T/.test(time) || Number.isNaN(date.getTime()))
    throw ValidationFailed.field('cursor', 'not a cursor this API gave (pass `next_cursor` as it is)');
  return { time: date, id: Number(id) };
}
