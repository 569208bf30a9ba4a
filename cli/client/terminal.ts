import { spawnSync } from 'node:child_process';
import readline from 'node:readline';

/**
 * Where a command writes and reads: results on stdout (a table, or JSON with --json), everything
 * else (progress, prompts, errors) on stderr, so `berth sites list --json | jq` stays clean.
 */
export type Terminal = {
  out(text: string): void;
  err(text: string): void;
  /** stderr is a terminal: progress redraws one line instead of printing one per change. */
  interactive: boolean;
  /** One line from stdin, after showing `prompt` on stderr. */
  ask(prompt: string): Promise<string>;
  /** As `ask`, but a terminal does not echo what is typed (a password). */
  askSecret(prompt: string): Promise<string>;
};

export function processTerminal(): Terminal {
  let lines: AsyncIterator<string> | undefined;
  const ask = async (prompt: string) => {
    process.stderr.write(prompt);
    // One reader for the whole run: a second would lose what the first had buffered.
    lines ??= readline.createInterface({ input: process.stdin, terminal: false })[Symbol.asyncIterator]();
    const next = await lines.next();
    if (next.done) throw new Error('stdin ended before the answer');
    return next.value.trim();
  };
  // The terminal echoes in its line mode; stty turns that off for one answer and on again.
  const echo = (on: boolean) => void spawnSync('stty', [on ? 'echo' : '-echo'], { stdio: ['inherit', 'ignore', 'ignore'] });
  return {
    out: (text) => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => void process.stderr.write(text),
    interactive: Boolean(process.stderr.isTTY),
    ask,
    async askSecret(prompt) {
      if (!process.stdin.isTTY) return ask(prompt);
      echo(false);
      try {
        return await ask(prompt);
      } finally {
        echo(true);
        process.stderr.write('\n');
      }
    },
  };
}

/** Rows as aligned columns under a header, the way `kubectl get` and `gh` print lists. */
export function table(headers: string[], rows: Array<Array<string | number | null | undefined>>): string {
  const cells = [headers, ...rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? '-' : String(cell))))];
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  return cells.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ')).join('\n');
}

/** `[#######-------------]  35%  install_wordpress` */
export function progressBar(percent: number, label: string, width = 24): string {
  const filled = Math.round((Math.max(0, Math.min(100, percent)) / 100) * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(percent).padStart(3)}%  ${label}`;
}
