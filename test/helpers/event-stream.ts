/** One Server-Sent Event as a browser's EventSource would dispatch it (`data` parsed as JSON). */
export type StreamEvent = { id: string | undefined; event: string; data: any };

/**
 * A Server-Sent Events stream read with fetch, as EventSource reads it: `next()` resolves with each
 * event in turn (comments and `retry:` skipped, `retry` kept), `close()` drops the connection.
 */
export class EventStream {
  readonly status: number;
  readonly headers: Headers;
  retry: number | undefined;
  private readonly controller: AbortController;
  private readonly reader: ReadableStreamDefaultReader<string> | undefined;
  private buffer = '';
  private ended = false;
  /** Comment lines seen (`: keepalive`). */
  readonly comments: string[] = [];

  private constructor(response: Response, controller: AbortController) {
    this.status = response.status;
    this.headers = response.headers;
    this.controller = controller;
    this.reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  }

  static async open(url: string, headers: Record<string, string> = {}): Promise<EventStream> {
    const controller = new AbortController();
    const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
    return new EventStream(response, controller);
  }

  /** The next event; undefined once the server has closed the stream. Fails after `timeoutMs`, naming it. */
  async next(timeoutMs = 15_000): Promise<StreamEvent | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const block = this.takeBlock();
      if (block !== undefined) {
        const event = this.parse(block);
        if (event) return event;
        continue;
      }
      if (this.ended || !this.reader) return undefined;
      const left = deadline - Date.now();
      let timer: NodeJS.Timeout | undefined;
      const read = await Promise.race([
        this.reader.read(),
        new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), Math.max(left, 0)))),
      ]);
      clearTimeout(timer);
      if (read === 'timeout') throw new Error(`no event within ${timeoutMs} ms (buffered: ${JSON.stringify(this.buffer)})`);
      if (read.done) this.ended = true;
      else this.buffer += read.value.replace(/\r\n?/g, '\n');
    }
  }

  /** The next `count` events. */
  async take(count: number, timeoutMs?: number): Promise<StreamEvent[]> {
    const events: StreamEvent[] = [];
    while (events.length < count) {
      const event = await this.next(timeoutMs);
      if (!event) throw new Error(`the stream ended after ${events.length} of ${count} events: ${JSON.stringify(events)}`);
      events.push(event);
    }
    return events;
  }

  /** Events until (and with) the first that `done` holds for. */
  async until(done: (event: StreamEvent) => boolean, timeoutMs?: number): Promise<StreamEvent[]> {
    const events: StreamEvent[] = [];
    for (;;) {
      const event = await this.next(timeoutMs);
      if (!event) throw new Error(`the stream ended before the awaited event: ${JSON.stringify(events)}`);
      events.push(event);
      if (done(event)) return events;
    }
  }

  close(): void {
    this.controller.abort();
  }

  private takeBlock(): string | undefined {
    const end = this.buffer.indexOf('\n\n');
    if (end === -1) return undefined;
    const block = this.buffer.slice(0, end);
    this.buffer = this.buffer.slice(end + 2);
    return block;
  }

  private parse(block: string): StreamEvent | undefined {
    let id: string | undefined;
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        this.comments.push(line.slice(1).trim());
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') id = value;
      else if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'retry') this.retry = Number(value);
    }
    if (data.length === 0) return undefined;
    return { id, event, data: JSON.parse(data.join('\n')) };
  }
}
