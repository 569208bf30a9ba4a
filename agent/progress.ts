import type { LogStream } from './commands/types.ts';
import type { ProtocolClient } from './protocol-client.ts';

/** The protocol's bounds: lines per request and characters per line. */
const LINES_PER_POST = 200;
const MAX_LINE_CHARS = 4000;
/** Lines waiting while the control plane is slow or away; older ones are dropped (and counted). */
const MAX_PENDING_LINES = 2000;
const FLUSH_DELAY_MS = 1000;

type LogLine = { stream: LogStream; line: string };

/**
 * One running command's progress and log lines, batched: at most one request in flight, sent a
 * moment after the first unsent line. A failed post keeps the lines for the next one; the lease is
 * renewed by every post (and by the heartbeat, which names running commands).
 */
export class ProgressReporter {
  private pending: LogLine[] = [];
  private dropped = 0;
  private percent: number | undefined;
  private percentSent: number | undefined;
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> | null = null;
  private closed = false;
  private failures = 0;
  private readonly client: ProtocolClient;
  private readonly commandId: string;

  constructor(client: ProtocolClient, commandId: string) {
    this.client = client;
    this.commandId = commandId;
  }

  log(stream: LogStream, line: string): void {
    this.pending.push({ stream, line: line.length > MAX_LINE_CHARS ? line.slice(0, MAX_LINE_CHARS) : line });
    if (this.pending.length > MAX_PENDING_LINES) {
      this.pending.shift();
      this.dropped += 1;
    }
    this.schedule();
  }

  progress(percent: number): void {
    this.percent = Math.max(0, Math.min(100, Math.round(percent)));
    this.schedule();
  }

  /** Sends what is left (a few batches at most) and stops. Never throws. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.inFlight;
    for (let batch = 0; batch < 5 && this.hasUnsent(); batch += 1) {
      if (!(await this.send())) break;
    }
  }

  private hasUnsent(): boolean {
    return this.pending.length > 0 || this.dropped > 0 || this.percent !== this.percentSent;
  }

  private schedule(): void {
    if (this.closed || this.timer || this.inFlight) return;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.inFlight = this.send().then(() => {
          this.inFlight = null;
          if (this.hasUnsent()) this.schedule();
        });
      },
      Math.min(30_000, FLUSH_DELAY_MS * 2 ** this.failures),
    );
    this.timer.unref();
  }

  /** One batch; true when it was accepted. */
  private async send(): Promise<boolean> {
    const logs = this.pending.slice(0, LINES_PER_POST);
    const dropped = this.dropped;
    if (dropped > 0 && logs.length === LINES_PER_POST) logs.pop();
    const body = {
      ...(this.percent !== undefined ? { progress: this.percent } : {}),
      logs: dropped > 0 ? [{ stream: 'info' as const, line: `[${dropped} log lines dropped while the control plane was unreachable]` }, ...logs] : logs,
    };
    try {
      await this.client.progress(this.commandId, body);
    } catch {
      // kept for the next post, a little later each time; the result has its own retries
      this.failures = Math.min(this.failures + 1, 5);
      return false;
    }
    this.failures = 0;
    this.pending.splice(0, logs.length);
    this.dropped -= dropped;
    this.percentSent = body.progress;
    return true;
  }
}
