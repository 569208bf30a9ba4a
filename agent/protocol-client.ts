import http from 'node:http';
import https from 'node:https';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AGENT_PREFIX, PROTOCOL_HEADER, PROTOCOL_VERSION } from '../shared/agent-protocol/constants.ts';
import type { LogsRequest, CommandResult, HostFacts, NodeMetrics } from '../shared/agent-protocol/protocol.ts';
import { commandsReplyCheck, enrollReplyCheck, heartbeatReplyCheck, logsReplyCheck, type ReplyCheck } from './protocol-replies.ts';

/** The largest answer the agent reads (a command list); anything bigger is a broken peer. */
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
const REQUEST_TIMEOUT_MS = 30_000;
/** Of a refused download, only this much of the (JSON error) body is read. */
const MAX_ERROR_BYTES = 64 * 1024;
/** An upload may stall this long (a slow receiver downstream) before it is given up. */
const UPLOAD_SILENCE_MS = 120_000;

/**
 * How a failed request should be treated:
 * - unreachable: network trouble, 5xx, 429 — back off and try again, forever;
 * - protocol: 426, this agent speaks a protocol the control plane does not — stop;
 * - disabled: 403 node_disabled — an operator may enable it again: wait long, keep trying;
 * - unauthorized: 401 — unknown key, expired enrollment token, clock far off: wait long (or stop, when enrolling);
 * - rejected: any other 4xx — this request will never succeed as it is.
 */
export type FailureKind = 'unreachable' | 'protocol' | 'disabled' | 'unauthorized' | 'rejected';

export class ControlPlaneError extends Error {
  readonly kind: FailureKind;
  readonly status: number | null;
  readonly code: string | null;
  readonly details: Record<string, unknown>;

  constructor(kind: FailureKind, message: string, status: number | null = null, code: string | null = null, details: Record<string, unknown> = {}) {
    super(message);
    this.kind = kind;
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export function failureKindOf(error: unknown): FailureKind {
  return error instanceof ControlPlaneError ? error.kind : 'unreachable';
}

type RequestOptions = { signal?: AbortSignal | undefined; timeoutMs?: number; authenticated?: boolean };

/**
 * The agent's side of shared/agent-protocol over HTTP(S) (node:http: lighter than fetch for a process
 * that should idle in a few tens of MB). Every request names the protocol version and, once enrolled,
 * carries a fresh token from `sign`.
 */
export class ProtocolClient {
  private readonly base: URL;
  private readonly agent: http.Agent;
  private sign: (() => Promise<string>) | null = null;

  constructor(controlPlaneUrl: string, maxSockets: number) {
    this.base = new URL(controlPlaneUrl);
    const options = { keepAlive: true, maxSockets };
    this.agent = this.base.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
  }

  /** From enrollment on, every request is signed as the node. */
  useSigner(sign: () => Promise<string>): void {
    this.sign = sign;
  }

  close(): void {
    this.agent.destroy();
  }

  async enroll(
    body: { enrollment_token: string; public_key: { kty: 'OKP'; crv: 'Ed25519'; x: string }; agent_version: string; facts: HostFacts },
    signal?: AbortSignal,
  ) {
    return this.call('POST', '/enroll', body, enrollReplyCheck, { authenticated: false, signal });
  }

  /** Long-poll: answers when commands are queued or after `waitSeconds` with none. */
  async poll(waitSeconds: number, limit: number, signal?: AbortSignal) {
    const reply = await this.call('GET', `/commands?wait=${waitSeconds}&limit=${limit}`, undefined, commandsReplyCheck, {
      signal,
      timeoutMs: (waitSeconds + 15) * 1000,
    });
    return reply.commands;
  }

  async progress(commandId: string, body: { progress?: number; logs: Array<{ stream: 'info' | 'stdout' | 'stderr'; line: string }> }, signal?: AbortSignal) {
    await this.call('POST', `/commands/${encodeURIComponent(commandId)}/progress`, body, null, { signal });
  }

  async result(commandId: string, body: CommandResult, signal?: AbortSignal) {
    await this.call('POST', `/commands/${encodeURIComponent(commandId)}/result`, body, null, { signal });
  }

  async heartbeat(
    body: {
      agent_version: string;
      metrics: NodeMetrics;
      running: string[];
      started_at?: string;
      sftp?: { port: number; host_key: string; host_key_fingerprint: string };
    },
    signal?: AbortSignal,
  ) {
    return this.call('POST', '/heartbeat', body, heartbeatReplyCheck, { signal });
  }

  /** New lines of the node's environment logs (agent/logs). */
  async shipLogs(body: LogsRequest, signal?: AbortSignal) {
    return this.call('POST', '/logs', body, logsReplyCheck, { signal });
  }

  /**
   * Streams a binary answer (an upload's bytes) into `writable`, which is ended when the body is.
   * A refusal is a ControlPlaneError like any call's; trouble on the wire mid-body is `unreachable`;
   * an error of `writable` itself (a size check) comes out as it is. `REQUEST_TIMEOUT_MS` is the
   * longest silence, not the longest download.
   */
  async download(path: string, writable: Writable, signal?: AbortSignal): Promise<void> {
    const headers = await this.headers(true, 'application/octet-stream');
    const url = this.urlOf(path);
    const transport = url.protocol === 'https:' ? https : http;
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const request = transport.request(url, { method: 'GET', headers, agent: this.agent, signal, timeout: REQUEST_TIMEOUT_MS }, resolve);
      request.on('timeout', () => request.destroy(new Error(`no data within ${REQUEST_TIMEOUT_MS} ms`)));
      request.on('error', (error) => reject(unreachable(error)));
      request.end();
    });
    const status = response.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size <= MAX_ERROR_BYTES) chunks.push(chunk);
      }
      throw errorFrom('GET', path, status, parseJson(Buffer.concat(chunks).toString('utf8')));
    }
    let writableError: unknown = null;
    writable.once('error', (error) => (writableError = error));
    try {
      await pipeline(response, writable, ...(signal ? [{ signal }] : []));
    } catch (error) {
      throw error === writableError ? error : unreachable(error as Error);
    }
  }

  /**
   * Streams `source` as the body of a POST (chunked: its length is not known beforehand), with
   * backpressure: a slow receiver slows the source. An error of `source` cuts the request, so the
   * receiver sees an aborted body, never a short one that looks whole. Resolves once the control
   * plane has answered 2xx; a refusal is a ControlPlaneError like any call's.
   */
  async upload(path: string, source: Readable, signal?: AbortSignal): Promise<void> {
    const headers = await this.headers(true, 'application/json');
    headers['content-type'] = 'application/octet-stream';
    const url = this.urlOf(path);
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(url, { method: 'POST', headers, agent: this.agent, signal, timeout: UPLOAD_SILENCE_MS });
    request.on('timeout', () => request.destroy(new Error(`nothing moved for ${UPLOAD_SILENCE_MS} ms`)));
    const answered = new Promise<http.IncomingMessage>((resolve, reject) => {
      request.on('response', resolve);
      request.on('error', (error) => reject(unreachable(error)));
    });
    answered.catch(() => undefined);
    let sourceError: unknown = null;
    source.once('error', (error) => (sourceError = error));
    try {
      await pipeline(source, request);
    } catch (error) {
      // refused early (the answer came before the body was taken): the answer says why
      if (sourceError === null && request.writableFinished === false) {
        const early = await Promise.race([answered.catch(() => null), new Promise<null>((resolve) => setTimeout(() => resolve(null), 1000).unref())]);
        if (early && (early.statusCode ?? 0) >= 300) throw errorFrom('POST', path, early.statusCode ?? 0, parseJson(await readCapped(early)));
      }
      throw error === sourceError ? error : unreachable(error as Error);
    }
    const response = await answered;
    const text = await readCapped(response);
    const status = response.statusCode ?? 0;
    if (status < 200 || status >= 300) throw errorFrom('POST', path, status, parseJson(text));
  }

  private async headers(authenticated: boolean, accept: string): Promise<Record<string, string>> {
    const headers: Record<string, string> = { accept, [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) };
    if (authenticated) {
      if (!this.sign) throw new Error('the agent is not enrolled: no key to sign requests with');
      headers.authorization = `Bearer ${await this.sign()}`;
    }
    return headers;
  }

  private urlOf(path: string): URL {
    return new URL(`${this.base.pathname.replace(/\/$/, '')}${AGENT_PREFIX}${path}`, this.base);
  }

  private async call<Reply = undefined>(
    method: string,
    path: string,
    body: unknown,
    check: ReplyCheck<Reply> | null,
    options: RequestOptions = {},
  ): Promise<Reply> {
    const headers = await this.headers(options.authenticated !== false, 'application/json');
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    if (payload) headers['content-type'] = 'application/json';
    const answer = await send(this.agent, this.urlOf(path), method, headers, payload, options.signal, options.timeoutMs ?? REQUEST_TIMEOUT_MS);
    const json = parseJson(answer.body);
    if (answer.status >= 200 && answer.status < 300) {
      if (!check) return undefined as Reply;
      const checked = check((json as { data?: unknown } | null)?.data);
      if (!checked.ok) throw new ControlPlaneError('unreachable', `unexpected answer to ${method} ${path}: ${checked.message}`, answer.status);
      return checked.value;
    }
    throw errorFrom(method, path, answer.status, json);
  }
}

async function readCapped(response: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_ERROR_BYTES) chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return text.length > 0 ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

function errorFrom(method: string, path: string, status: number, json: unknown): ControlPlaneError {
  const error = (json as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error;
  const code = typeof error?.code === 'string' ? error.code : null;
  const details = typeof error?.details === 'object' && error.details !== null ? (error.details as Record<string, unknown>) : {};
  const message = `${method} ${AGENT_PREFIX}${path}: ${status}${code ? ` ${code}` : ''}${typeof error?.message === 'string' ? `: ${error.message}` : ''}`;
  let kind: FailureKind;
  if (status === 426 || code === 'PROTOCOL_MISMATCH') kind = 'protocol';
  else if (status === 403 && details.reason === 'node_disabled') kind = 'disabled';
  else if (status === 401 || status === 403) kind = 'unauthorized';
  else if (status === 408 || status === 429 || status >= 500) kind = 'unreachable';
  else kind = 'rejected';
  return new ControlPlaneError(kind, message, status, code, details);
}

function send(
  agent: http.Agent,
  url: URL,
  method: string,
  headers: Record<string, string>,
  payload: Buffer | undefined,
  signal: AbortSignal | undefined,
  timeoutMs: number,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    if (payload) headers['content-length'] = String(payload.length);
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(url, { method, headers, agent, signal, timeout: timeoutMs }, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_RESPONSE_BYTES) request.destroy(new Error(`answer larger than ${MAX_RESPONSE_BYTES} bytes`));
        else chunks.push(chunk);
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', (error) => reject(unreachable(error)));
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', (error) => reject(unreachable(error)));
    request.end(payload);
  });
}

function unreachable(error: Error): ControlPlaneError {
  const code = (error as NodeJS.ErrnoException).code;
  return new ControlPlaneError('unreachable', `${code ? `${code}: ` : ''}${error.message}`);
}
