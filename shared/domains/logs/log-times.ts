import type { EnvironmentLogFile } from '../../agent-protocol/protocol.ts';

const MONTHS: Record<string, number> = { Jan: 0, Feb: 1, Mar: 2, Apr: 3, May: 4, Jun: 5, Jul: 6, Aug: 7, Sep: 8, Oct: 9, Nov: 10, Dec: 11 };
/** A line dated later than its reading by more than this is dated by its reading (a clock far off, or a forged line). */
const FUTURE_SLACK_MS = 5 * 60 * 1000;

/**
 * When a log line happened: its own time where its format carries one (the edge's JSON `time`,
 * nginx's `2026/11/28 06:40:00` error lines, PHP's `[28-Nov-2026 06:40:00 UTC]`; the containers
 * run in UTC), else when the agent read it. A line that claims a time after its reading (php.log is
 * the tenant's to write) is dated by its reading.
 */
export function lineTime(file: EnvironmentLogFile, line: string, readAt: Date): Date {
  const own = ownTime(file, line);
  if (!own || Number.isNaN(own.getTime()) || own.getTime() > readAt.getTime() + FUTURE_SLACK_MS) return readAt;
  return own;
}

function ownTime(file: EnvironmentLogFile, line: string): Date | undefined {
  if (file === 'access') {
    if (!line.startsWith('{')) return undefined;
    try {
      const time = (JSON.parse(line) as { time?: unknown }).time;
      return typeof time === 'string' ? new Date(time) : undefined;
    } catch {
      return undefined;
    }
  }
  if (file === 'error') {
    const match = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2}) /.exec(line);
    return match ? new Date(Date.UTC(+match[1]!, +match[2]! - 1, +match[3]!, +match[4]!, +match[5]!, +match[6]!)) : undefined;
  }
  const match = /^\[(\d{2})-([A-Z][a-z]{2})-(\d{4}) (\d{2}):(\d{2}):(\d{2})(?: UTC)?\]/.exec(line);
  const month = match ? MONTHS[match[2]!] : undefined;
  return match && month !== undefined ? new Date(Date.UTC(+match[3]!, month, +match[1]!, +match[4]!, +match[5]!, +match[6]!)) : undefined;
}
