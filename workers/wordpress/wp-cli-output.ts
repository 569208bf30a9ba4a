/**
 * What of a WP-CLI command's output goes into the operation's log: the first lines, within both
 * limits. An ended operation keeps only its last 500 log lines (shared/domains/operations), so 400
 * lines leave the whole of what was logged, and the line saying what was dropped, in place.
 */
export const WP_CLI_LOG_LIMITS = { lines: 400, bytes: 1024 * 1024 } as const;

export type LoggedLine = { stream: 'stdout' | 'stderr'; line: string };

/**
 * The lines to log (stdout's, then stderr's, where WP-CLI's `Error:` and `Warning:` go), cut at
 * `limits`, and one line saying what was dropped. `truncatedBytes` counts output already cut off
 * before (the node read only the first bytes of a long output).
 */
export function cappedLog(
  output: { stdout: string; stderr: string; truncatedBytes?: number },
  limits: { lines: number; bytes: number } = WP_CLI_LOG_LIMITS,
): { lines: LoggedLine[]; dropped: { lines: number; bytes: number } } {
  const all: LoggedLine[] = [
    ...splitLines(output.stdout).map((line) => ({ stream: 'stdout' as const, line })),
    ...splitLines(output.stderr).map((line) => ({ stream: 'stderr' as const, line })),
  ];
  const lines: LoggedLine[] = [];
  let bytes = 0;
  let droppedBytes = output.truncatedBytes ?? 0;
  for (const entry of all) {
    const size = Buffer.byteLength(entry.line) + 1;
    if (lines.length < limits.lines && bytes + size <= limits.bytes) {
      lines.push(entry);
      bytes += size;
    } else droppedBytes += size;
  }
  const droppedLines = all.length - lines.length;
  if (droppedLines > 0 || droppedBytes > 0) {
    lines.push({
      stream: 'stderr',
      line: `output capped at ${limits.lines} lines / ${limits.bytes} bytes: ${droppedLines} more line(s), ${droppedBytes} byte(s) not logged`,
    });
  }
  return { lines, dropped: { lines: droppedLines, bytes: droppedBytes } };
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
