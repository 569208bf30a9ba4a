/**
 * A small HTTP/1.1 load generator, run as its own process by the benches (so the measured server and
 * the process driving it do not share an event loop): `concurrency` keep-alive connections, each with
 * one request in flight, for `seconds`, after a warm-up of `warmupSeconds`; prints one JSON line with
 * the completed requests per second, latency percentiles, the statuses and the X-Cache values seen.
 *
 * It writes prebuilt request bytes to raw sockets and parses only what it needs of each answer (status,
 * Content-Length or chunked framing, X-Cache), as autocannon does: Node's http client would cost more
 * CPU per request than a bare Express route, and the floor would measure the client, not the server.
 *   node test/bench/load/http-load.ts '{"port":8080,"host":"site.test","path":"/","seconds":10,"concurrency":16}'
 */
import net from 'node:net';

type LoadSpec = {
  port: number;
  host: string;
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  seconds: number;
  warmupSeconds?: number;
  concurrency: number;
};

type Tally = { completed: number; errors: number; statuses: Record<string, number>; cache: Record<string, number>; latencies: number[] };

const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec;

const requestBytes = (() => {
  const body = spec.body === undefined ? undefined : Buffer.from(spec.body);
  const headers: Record<string, string> = { host: spec.host, connection: 'keep-alive', ...spec.headers };
  if (body) headers['content-length'] = String(body.length);
  const head = `${spec.method ?? 'GET'} ${spec.path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
  return body ? Buffer.concat([Buffer.from(head), body]) : Buffer.from(head);
})();

const HEADER_END = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');

/** One answer framed out of `buffer`: its status, X-Cache and where it ends; undefined while incomplete. */
function parseAnswer(buffer: Buffer): { status: number; cache: string; end: number; close: boolean } | undefined {
  const headerEnd = buffer.indexOf(HEADER_END);
  if (headerEnd < 0) return undefined;
  const head = buffer.toString('latin1', 0, headerEnd);
  const lines = head.split('\r\n');
  const status = Number(lines[0]!.slice(9, 12));
  let length = -1;
  let chunked = false;
  let cache = '-';
  let close = false;
  for (let i = 1; i < lines.length; i += 1) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-length') length = Number(value);
    else if (name === 'transfer-encoding') chunked = value.toLowerCase().includes('chunked');
    else if (name === 'x-cache') cache = value;
    else if (name === 'connection') close = value.toLowerCase() === 'close';
  }
  let offset = headerEnd + 4;
  if (chunked) {
    for (;;) {
      const sizeEnd = buffer.indexOf(CRLF, offset);
      if (sizeEnd < 0) return undefined;
      const size = parseInt(buffer.toString('latin1', offset, sizeEnd), 16);
      offset = sizeEnd + 2 + size + 2;
      if (offset > buffer.length) return undefined;
      if (size === 0) return { status, cache, end: offset, close };
    }
  }
  const end = offset + Math.max(0, length);
  return end <= buffer.length ? { status, cache, end, close } : undefined;
}

/** One connection sending a request, reading its answer, and again, until `deadline`. */
function drive(deadline: number, tally: Tally | undefined): Promise<void> {
  return new Promise((resolve) => {
    let buffer = Buffer.alloc(0);
    let sentAt = 0;
    let socket: net.Socket;
    const send = () => {
      if (performance.now() >= deadline) {
        socket.destroy();
        resolve();
        return;
      }
      sentAt = performance.now();
      socket.write(requestBytes);
    };
    const connect = () => {
      buffer = Buffer.alloc(0);
      socket = net.connect({ host: '127.0.0.1', port: spec.port, noDelay: true });
      socket.on('connect', send);
      socket.on('data', (data) => {
        buffer = buffer.length === 0 ? data : Buffer.concat([buffer, data]);
        const answer = parseAnswer(buffer);
        if (!answer) return;
        buffer = buffer.subarray(answer.end);
        if (tally) {
          tally.completed += 1;
          tally.latencies.push(performance.now() - sentAt);
          tally.statuses[answer.status] = (tally.statuses[answer.status] ?? 0) + 1;
          tally.cache[answer.cache] = (tally.cache[answer.cache] ?? 0) + 1;
        }
        if (answer.close) {
          socket.removeAllListeners();
          socket.destroy();
          connect();
        } else send();
      });
      socket.on('error', () => {
        if (tally) tally.errors += 1;
        socket.removeAllListeners();
        socket.destroy();
        if (performance.now() < deadline) setTimeout(connect, 10);
        else resolve();
      });
    };
    connect();
  });
}

async function run(seconds: number, tally: Tally | undefined) {
  const started = performance.now();
  await Promise.all(Array.from({ length: spec.concurrency }, () => drive(started + seconds * 1000, tally)));
  return (performance.now() - started) / 1000;
}

await run(spec.warmupSeconds ?? 1, undefined);
const tally: Tally = { completed: 0, errors: 0, statuses: {}, cache: {}, latencies: [] };
const elapsed = await run(spec.seconds, tally);
tally.latencies.sort((a, b) => a - b);
const percentile = (p: number) => Math.round((tally.latencies[Math.floor((tally.latencies.length - 1) * p)] ?? 0) * 100) / 100;
process.stdout.write(
  `${JSON.stringify({
    requests: tally.completed,
    errors: tally.errors,
    seconds: elapsed,
    rps: tally.completed / elapsed,
    p50Ms: percentile(0.5),
    p99Ms: percentile(0.99),
    statuses: tally.statuses,
    cache: tally.cache,
  })}\n`,
);
