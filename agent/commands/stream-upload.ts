import { once } from 'node:events';
import { PassThrough, Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { containerCommands } from './containers.ts';
import { CommandFailure } from './failure.ts';
import type { CommandContext, Handlers, Payload } from './types.ts';
import { ControlPlaneError } from '../protocol-client.ts';
import { EXEC_TAIL_BYTES, TailSink } from '../runtime/exec.ts';

/** A failed run reports at most this much of its stderr (the protocol's stderr_tail limit). */
const STDERR_TAIL_CHARS = 8000;
/** How long one part of the stream (one request) is fed, unless the agent is told otherwise: well within the control plane's 30 s request timeout. */
const PART_MS = 15_000;

type Exec = { inspect(): Promise<{ Running: boolean; ExitCode: number | null }> };

/**
 * A command's stdout streamed to the control plane (a backup's archive for a download): in a
 * throwaway container made for it and removed afterwards, whatever happens. Nothing is held: the
 * exec's output is demultiplexed with backpressure straight into the upload, so a slow receiver
 * slows the command. The upload starts with the first byte of output (a command that fails before
 * printing anything never opens it) and is cut when the command exits outside `ok_exit_codes`.
 */
export const streamUploadCommands = {
  'stream.upload': async (payload, ctx) => {
    if (!ctx.upload) throw new CommandFailure('this agent cannot upload streams', { permanent: true });
    const container = await containerCommands['container.ensure']({ ...payload.container, start: true }, ctx);
    try {
      return await streamExec(payload, ctx, container.id);
    } finally {
      try {
        await containerCommands['container.remove']({ name: payload.container.name }, ctx);
      } catch (error) {
        ctx.log('info', `removing ${payload.container.name} failed: ${(error as Error).message}`);
      }
    }
  },
} satisfies Partial<Handlers>;

async function streamExec(payload: Payload<'stream.upload'>, ctx: CommandContext, containerId: string): Promise<{ bytes: number; exit_code: number }> {
  const exec = await ctx.docker.getContainer(containerId).exec({
    Cmd: payload.cmd,
    Env: Object.entries(payload.env).map(([name, value]) => `${name}=${value}`),
    ...(payload.user ? { User: payload.user } : {}),
    AttachStdin: false,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
  });
  const raw = await exec.start({ hijack: true, stdin: false });
  const stderr = new TailSink(EXEC_TAIL_BYTES, (line) => ctx.log('stderr', line));
  const stdout = new ExecStdout(stderr, exec, payload, ctx.signal);
  const reading = pipeline(raw, stdout, { signal: ctx.signal });
  reading.catch(() => undefined); // its failure comes out of stdout's iterator
  const chunks = stdout[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const path = `/streams/${payload.stream_id}`;
  try {
    // the first byte of output (or the command's failure) before anything is posted
    let next: Promise<IteratorResult<Buffer>> | null = chunks.next();
    let first = await next;
    let part = 0;
    while (!first.done) {
      const segment = new PassThrough();
      const sending = ctx.upload!(`${path}?part=${part}`, segment, ctx.signal);
      sending.catch(() => undefined);
      try {
        next = (await fillSegment(segment, first.value, chunks, Date.now() + (ctx.streamPartMs ?? PART_MS))).pending;
      } catch (error) {
        segment.destroy(error as Error); // cut, so the control plane never takes it for a whole part
        throw error;
      }
      next?.catch(() => undefined); // read on below, after this part is accepted
      segment.end();
      await sending;
      part += 1;
      if (!next) break;
      first = await next;
    }
    await ctx.upload!(`${path}?part=${part}&last=true`, Readable.from([]), ctx.signal);
  } catch (error) {
    raw.destroy();
    if (error instanceof CommandFailure) throw error;
    if (ctx.signal.aborted) throw new CommandFailure(`the stream ${payload.stream_id} stopped before it finished`);
    // refused (no such stream for this node, gone, taken): running again cannot help
    if (error instanceof ControlPlaneError)
      throw new CommandFailure(`uploading stream ${payload.stream_id} failed: ${error.message}`, { permanent: error.kind === 'rejected' });
    throw error;
  }
  ctx.log('info', `streamed ${stdout.bytes} bytes of \`${payload.cmd[0]}\` in ${payload.container.name}`);
  return { bytes: stdout.bytes, exit_code: stdout.exitCode ?? 0 };
}

const TIME_UP = Symbol('time up');

/**
 * Writes `first` and what follows into one part until `until` (each part is one request, and the
 * control plane gives a request 30 s): waits for the receiver (drain) and for output, either only
 * until then. Returns the read still pending for the next part, or null at the end of the output.
 */
async function fillSegment(
  segment: PassThrough,
  first: Buffer,
  chunks: AsyncIterator<Buffer>,
  until: number,
): Promise<{ pending: Promise<IteratorResult<Buffer>> | null }> {
  let chunk: Buffer | null = first;
  for (;;) {
    if (chunk && !segment.write(chunk) && (await beforeTime(once(segment, 'drain'), until)) === TIME_UP) return { pending: chunks.next() };
    const next = chunks.next();
    const result = await beforeTime(next, until);
    if (result === TIME_UP) return { pending: next };
    if (result.done) return { pending: null };
    chunk = result.value;
  }
}

async function beforeTime<T>(promise: Promise<T>, until: number): Promise<T | typeof TIME_UP> {
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<typeof TIME_UP>((resolve) => (timer = setTimeout(() => resolve(TIME_UP), Math.max(0, until - Date.now()))));
  try {
    return await Promise.race([promise, timeUp]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The Engine API's multiplexed exec output (8-byte frame headers: stream, 0, 0, 0, length) as the
 * command's stdout alone, stderr going to a tail for the log. Unlike dockerode's demuxStream, it
 * respects backpressure. At the end it asks the engine for the exit code and errors (instead of
 * ending) when it is not an accepted one.
 */
class ExecStdout extends Transform {
  bytes = 0;
  exitCode: number | null = null;
  failure: CommandFailure | null = null;
  private header = Buffer.alloc(0);
  private remaining = 0;
  private kind = 1;

  private readonly stderr: TailSink;
  private readonly exec: Exec;
  private readonly payload: Payload<'stream.upload'>;
  private readonly signal: AbortSignal;

  constructor(stderr: TailSink, exec: Exec, payload: Payload<'stream.upload'>, signal: AbortSignal) {
    super();
    this.stderr = stderr;
    this.exec = exec;
    this.payload = payload;
    this.signal = signal;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.remaining === 0) {
        const need = 8 - this.header.length;
        this.header = Buffer.concat([this.header, chunk.subarray(offset, offset + need)]);
        offset += Math.min(need, chunk.length - offset);
        if (this.header.length < 8) break;
        this.kind = this.header[0]!;
        this.remaining = this.header.readUInt32BE(4);
        this.header = Buffer.alloc(0);
        continue;
      }
      const part = chunk.subarray(offset, offset + this.remaining);
      offset += part.length;
      this.remaining -= part.length;
      if (this.kind === 2) {
        this.stderr.write(part);
      } else if (part.length > 0) {
        this.bytes += part.length;
        this.push(part);
      }
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    this.stderr.flushPartial();
    exitCodeOf(this.exec, this.signal).then(
      (code) => {
        this.exitCode = code;
        if (!this.payload.ok_exit_codes.includes(code)) {
          this.failure = new CommandFailure(`\`${this.payload.cmd.join(' ')}\` in ${this.payload.container.name} exited with ${code}`, {
            exitCode: code,
            stderrTail: this.stderr.text().slice(-STDERR_TAIL_CHARS),
            permanent: false,
          });
          done(this.failure);
        } else {
          done();
        }
      },
      (error: Error) => done(error),
    );
  }
}

/** The output can end a moment before the engine records the exit: ask again briefly. */
async function exitCodeOf(exec: Exec, signal: AbortSignal): Promise<number> {
  for (let attempt = 0; ; attempt += 1) {
    const info = await exec.inspect();
    if (!info.Running && typeof info.ExitCode === 'number') return info.ExitCode;
    if (attempt >= 50 || signal.aborted) throw new Error('the engine did not report the exit code of the exec');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
