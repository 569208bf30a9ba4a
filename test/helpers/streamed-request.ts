import net from 'node:net';
import { contractOf } from './contract.ts';

export type StreamedReply = {
  status: number;
  body: any;
  headers: Record<string, string>;
  /** Bytes of the body written before the answer came (or all of them). */
  sentBytes: number;
  /** The answer came while part of the body was still unsent. */
  answeredEarly: boolean;
};

/**
 * A request whose body is sent in parts, with a pause between them, that stops sending as soon as
 * the server answers: to see that a server refuses (and stops reading) before the body is all there.
 * Without `contentLength` the body goes chunked. Spoken over a plain socket, because a server that
 * answers early may close while the client still writes, and Node's HTTP client then reports the
 * write error instead of the answer it has received. The answer is checked against /openapi.json.
 */
export async function streamedRequest(
  baseUrl: string,
  method: string,
  path: string,
  options: {
    headers?: Record<string, string>;
    parts: Buffer[];
    contentLength?: number;
    pauseMs?: number;
    /** Read nothing until this long after connecting (a busy client): the whole body is sent meanwhile. */
    readAfterMs?: number;
  },
): Promise<StreamedReply> {
  const url = new URL(path, baseUrl);
  const chunked = options.contentLength === undefined;
  const headers: Record<string, string | number> = {
    host: url.host,
    connection: 'close',
    ...options.headers,
    ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': options.contentLength! }),
  };
  const socket = net.connect(Number(url.port), url.hostname);
  socket.on('error', () => undefined); // a reset after the answer is expected; the answer is what counts
  const received: Buffer[] = [];
  let answered = false;
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('data', (data: Buffer) => {
    received.push(data);
    answered = true;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  if (options.readAfterMs) {
    socket.pause();
    setTimeout(() => socket.resume(), options.readAfterMs);
  }
  const write = (data: Buffer | string) =>
    new Promise<void>((resolve) => {
      if (socket.destroyed || !socket.writable) return resolve();
      socket.write(data, () => resolve());
    });
  await write(
    `${method} ${url.pathname}${url.search} HTTP/1.1\r\n${Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\r\n')}\r\n\r\n`,
  );
  let sentBytes = 0;
  let answeredEarly = false;
  for (const [index, part] of options.parts.entries()) {
    if (answered || socket.destroyed) {
      answeredEarly = true;
      break;
    }
    await write(chunked ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]) : part);
    sentBytes += part.length;
    if (index < options.parts.length - 1 && options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
  }
  if (!answeredEarly && chunked) await write('0\r\n\r\n');
  // the answer: read until the server closes (we asked for connection: close), or its length is in
  const deadline = Date.now() + 30_000;
  while (!complete(Buffer.concat(received)) && !socket.destroyed && Date.now() < deadline) {
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 10))]);
  }
  socket.destroy();
  const { status, headers: answerHeaders, text } = parse(Buffer.concat(received));
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  (await contractOf(baseUrl)).check(method, path, status, answerHeaders['content-type'] ?? null, text, body);
  return { status, body, headers: answerHeaders, sentBytes, answeredEarly };
}

function complete(raw: Buffer): boolean {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(raw.subarray(0, end).toString('latin1'));
  return length !== null && raw.length - end - 4 >= Number(length[1]);
}

function parse(raw: Buffer): { status: number; headers: Record<string, string>; text: string } {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no HTTP answer received (${raw.length} bytes)`);
  const [statusLine = '', ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = headers['content-length'] !== undefined ? Number(headers['content-length']) : raw.length - end - 4;
  return { status: Number(statusLine.split(' ')[1]), headers, text: raw.subarray(end + 4, end + 4 + length).toString('utf8') };
}

/** `size` bytes cut in parts of `partBytes`, starting with `head` (a zip signature, say). */
export function bodyParts(size: number, partBytes: number, head: Buffer = Buffer.alloc(0)): Buffer[] {
  const parts: Buffer[] = [];
  for (let offset = 0; offset < size; offset += partBytes) {
    const part = Buffer.alloc(Math.min(partBytes, size - offset), 0x61);
    if (offset === 0) head.copy(part);
    parts.push(part);
  }
  return parts;
}
