import { Writable } from 'node:stream';
import type { Docker } from './docker.ts';

/** What an exec's output keeps: the last bytes of each stream (a dump on stdout can be huge). */
export const EXEC_TAIL_BYTES = 64 * 1024;
const MAX_LINE_CHARS = 4000;

/**
 * Collects one output stream: keeps its last `limit` bytes and hands complete lines (cut at
 * MAX_LINE_CHARS) to `onLine` as they arrive, for the operation's log.
 */
export class TailSink extends Writable {
  private chunks: Buffer[] = [];
  private size = 0;
  private partial = '';
  private readonly limit: number;
  private readonly onLine: (line: string) => void;

  constructor(limit: number, onLine: (line: string) => void = () => {}) {
    super();
    this.limit = limit;
    this.onLine = onLine;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size - (this.chunks[0]?.length ?? 0) >= this.limit && this.chunks.length > 1) this.size -= this.chunks.shift()!.length;
    const lines = (this.partial + chunk.toString('utf8')).split('\n');
    this.partial = lines.pop()!.slice(-MAX_LINE_CHARS);
    for (const line of lines) this.onLine(line.slice(0, MAX_LINE_CHARS));
    callback();
  }

  /** The tail as text (a character cut in half at the start is dropped). */
  text(): string {
    const all = Buffer.concat(this.chunks);
    const tail = all.length > this.limit ? all.subarray(all.length - this.limit) : all;
    return tail.toString('utf8').replace(/^\uFFFD+/, '');
  }

  flushPartial(): void {
    if (this.partial) this.onLine(this.partial);
    this.partial = '';
  }
}

export type ExecRequest = { cmd: string[]; env: Record<string, string>; user?: string | undefined; workdir?: string | undefined };
export type ExecOutcome = { exitCode: number; stdout: string; stderr: string };

/**
 * Runs a command in a running container through the Engine API and waits for it: stdout and stderr
 * demultiplexed, each kept as a bounded tail. When `signal` aborts, the agent stops waiting and
 * detaches (the API cannot kill an exec; the process in the container runs on).
 */
export async function execInContainer(
  docker: Docker,
  containerId: string,
  request: ExecRequest,
  io: { signal: AbortSignal; onLine: (stream: 'stdout' | 'stderr', line: string) => void },
): Promise<ExecOutcome> {
  const exec = await docker.getContainer(containerId).exec({
    Cmd: request.cmd,
    Env: Object.entries(request.env).map(([name, value]) => `${name}=${value}`),
    ...(request.user ? { User: request.user } : {}),
    ...(request.workdir ? { WorkingDir: request.workdir } : {}),
    AttachStdin: false,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
  });
  const stream = await exec.start({ hijack: true, stdin: false });
  const stdout = new TailSink(EXEC_TAIL_BYTES, (line) => io.onLine('stdout', line));
  const stderr = new TailSink(EXEC_TAIL_BYTES, (line) => io.onLine('stderr', line));
  docker.modem.demuxStream(stream, stdout, stderr);
  await new Promise<void>((resolve, reject) => {
    const abort = () => {
      stream.destroy();
      reject(io.signal.reason instanceof Error ? io.signal.reason : new Error('aborted'));
    };
    if (io.signal.aborted) return abort();
    io.signal.addEventListener('abort', abort, { once: true });
    const done = () => {
      io.signal.removeEventListener('abort', abort);
      resolve();
    };
    stream.on('end', done);
    stream.on('close', done);
    stream.on('error', (error: Error) => {
      io.signal.removeEventListener('abort', abort);
      reject(error);
    });
  });
  stdout.flushPartial();
  stderr.flushPartial();
  return { exitCode: await exitCodeOf(exec, io.signal), stdout: stdout.text(), stderr: stderr.text() };
}

/** The output can end a moment before the engine records the exit: ask again briefly. */
async function exitCodeOf(exec: { inspect(): Promise<{ Running: boolean; ExitCode: number | null }> }, signal: AbortSignal): Promise<number> {
  for (let attempt = 0; ; attempt += 1) {
    const info = await exec.inspect();
    if (!info.Running && typeof info.ExitCode === 'number') return info.ExitCode;
    if (attempt >= 50 || signal.aborted) throw new Error('the engine did not report the exit code of the exec');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
