import http from 'node:http';
import { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  Berth,
  BerthConnectionError,
  BerthError,
  OperationFailedError,
  RateLimitError,
  ValidationError,
  type OperationDetail,
} from '../../../sdk/typescript/src/index.ts';

type Seen = { method: string; path: string; headers: http.IncomingHttpHeaders; body: string };
type Answer = { status: number; headers?: Record<string, string>; body?: unknown };

/** A real HTTP server on loopback that answers each request with `answer(request, index)` and remembers them all. */
async function startServer(answer: (request: Seen, index: number) => Answer) {
  const seen: Seen[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const entry = { method: request.method!, path: request.url!, headers: request.headers, body };
      seen.push(entry);
      const { status, headers = {}, body: answerBody } = answer(entry, seen.length - 1);
      const text = answerBody === undefined ? '' : typeof answerBody === 'string' ? answerBody : JSON.stringify(answerBody);
      response.writeHead(status, { 'content-type': typeof answerBody === 'string' ? 'application/octet-stream' : 'application/json', ...headers });
      response.end(status === 204 ? undefined : text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  servers.push(server);
  return { url, seen };
}

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

const meta = { timestamp: '2026-11-27T00:00:00Z', request_id: 'req-from-meta' };
const v1Error = (code: string, message: string, details: object = {}) => ({ error: { code, message, details }, meta });
const SITE_BODY = { name: 'Shop', php_version: '8.3', wordpress: { title: 'Shop', admin_user: 'admin', admin_email: 'admin@example.com' } };

function operation(status: OperationDetail['status'], progress: number, running: string | null, error: OperationDetail['error'] = null): OperationDetail {
  const steps = ['allocate', 'install'].map((name) => ({
    name,
    status: name === running ? 'running' : 'pending',
    cancellable: true,
    attempts: 0,
    started_at: null,
    finished_at: null,
  })) as OperationDetail['steps'];
  return {
    id: '00000000-0000-4000-8000-000000000001',
    kind: 'site.create',
    status,
    progress,
    target: { type: 'site', id: '1' },
    input: {},
    result: null,
    error,
    steps,
    attempts: 1,
    created_by_user_id: 1,
    created_at: '2026-11-27T00:00:00Z',
    started_at: null,
    finished_at: null,
    deadline_at: null,
    cancel_requested_at: null,
    waiting: null,
    logs: [],
  };
}

describe('retries', () => {
  it('retries a POST on 502/503 with one Idempotency-Key it made up, the same on every attempt', { timeout: 20_000 }, async () => {
    const server = await startServer((_request, index) =>
      index < 2 ? { status: index === 0 ? 502 : 503 } : { status: 202, body: { data: { ok: true }, meta } },
    );
    const berth = new Berth({ baseUrl: server.url, token: 'tok' });
    expect(await berth.sites.create({ body: SITE_BODY as any })).toEqual({ ok: true });
    expect(server.seen).toHaveLength(3);
    const keys = server.seen.map((request) => request.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(keys).size).toBe(1);
    expect(server.seen.every((request) => request.headers.authorization === 'Bearer tok' && request.body === JSON.stringify(SITE_BODY))).toBe(true);
  });

  it('a new logical call gets a new key; the caller may give its own', async () => {
    const server = await startServer(() => ({ status: 202, body: { data: {}, meta } }));
    const berth = new Berth({ baseUrl: server.url, token: 'tok' });
    await berth.sites.create({ body: SITE_BODY as any });
    await berth.sites.create({ body: SITE_BODY as any });
    await berth.sites.create({ body: SITE_BODY as any }, { idempotencyKey: 'my-key' });
    const keys = server.seen.map((request) => request.headers['idempotency-key']);
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[2]).toBe('my-key');
  });

  it('waits the Retry-After of a 429 before trying again', { timeout: 20_000 }, async () => {
    const server = await startServer((_request, index) =>
      index === 0
        ? { status: 429, headers: { 'retry-after': '1' }, body: v1Error('RATE_LIMIT_EXCEEDED', 'slow down') }
        : { status: 200, body: { data: { id: 1 }, meta } },
    );
    const berth = new Berth({ baseUrl: server.url, token: 'tok' });
    const started = Date.now();
    expect(await berth.sites.get({ id: 1 })).toEqual({ id: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.seen).toHaveLength(2);
  });

  it('gives up after maxRetries with a RateLimitError carrying retryAfter', async () => {
    const server = await startServer(() => ({ status: 429, headers: { 'retry-after': '0' }, body: v1Error('RATE_LIMIT_EXCEEDED', 'slow down') }));
    const berth = new Berth({ baseUrl: server.url, token: 'tok', maxRetries: 2 });
    const error = await berth.sites.list().catch((caught) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED', retryAfter: 0, requestId: 'req-from-meta' });
    expect(server.seen).toHaveLength(3);
  });

  it('does not retry a POST that takes no Idempotency-Key (the cookie surface)', async () => {
    const server = await startServer(() => ({ status: 503, body: { detail: 'down', code: 'internal_error' } }));
    const berth = new Berth({ baseUrl: server.url });
    await expect(berth.browserAuth.login({ body: { email: 'a@example.com', password: 'x' } as any })).rejects.toMatchObject({ status: 503 });
    expect(server.seen).toHaveLength(1);
    expect(server.seen[0]!.headers['idempotency-key']).toBeUndefined();
  });

  it('turns a refused connection into BerthConnectionError after retrying', { timeout: 20_000 }, async () => {
    const server = await startServer(() => ({ status: 200 }));
    const closedUrl = server.url;
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const berth = new Berth({ baseUrl: closedUrl, token: 'tok', maxRetries: 1 });
    await expect(berth.sites.list()).rejects.toBeInstanceOf(BerthConnectionError);
  });
});

describe('errors', () => {
  it('maps the /v1 shape: code, message, details, request id from meta, fields of a 422', async () => {
    const fields = [{ field: 'wordpress.admin_email', message: 'Invalid email' }];
    const server = await startServer(() => ({ status: 422, body: v1Error('VALIDATION_ERROR', 'Invalid body', { fields }) }));
    const error = await new Berth({ baseUrl: server.url, token: 'tok' }).sites.create({ body: SITE_BODY as any }).catch((caught) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 422, code: 'VALIDATION_ERROR', message: 'Invalid body', requestId: 'req-from-meta', fields });
  });

  it('maps the cookie surface shape {detail, code} with the request id of the X-Request-Id header', async () => {
    const server = await startServer(() => ({
      status: 401,
      headers: { 'x-request-id': 'req-from-header' },
      body: { detail: 'Sign in first', code: 'not_authenticated' },
    }));
    const error = await new Berth({ baseUrl: server.url }).browserAuth.me().catch((caught) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'not_authenticated', message: 'Sign in first', requestId: 'req-from-header', details: {} });
  });

  it('keeps details.reason of a 403', async () => {
    const server = await startServer(() => ({
      status: 403,
      body: v1Error('AUTHORIZATION_ERROR', 'no', { reason: 'missing_permission', permission: 'sites:create' }),
    }));
    const error = await new Berth({ baseUrl: server.url, token: 'tok' }).sites.list().catch((caught) => caught);
    expect(error).toBeInstanceOf(BerthError);
    expect(error.details).toEqual({ reason: 'missing_permission', permission: 'sites:create' });
  });
});

describe('answers', () => {
  it('reads no content as undefined and a download as the Response stream', async () => {
    const server = await startServer((request) => (request.method === 'DELETE' ? { status: 204 } : { status: 200, body: 'zstd-bytes' }));
    const berth = new Berth({ baseUrl: server.url, token: 'tok' });
    expect(await berth.dnsZones.delete({ zone: 7 })).toBeUndefined();
    const download = await berth.backups.download({ id: 1, env: 'production', backup: '6f1c2a3e-0000-4000-8000-000000000001' });
    expect(download).toBeInstanceOf(Response);
    expect(await download.text()).toBe('zstd-bytes');
    expect(server.seen[1]!.path).toBe('/v1/sites/1/environments/production/backups/6f1c2a3e-0000-4000-8000-000000000001/download');
  });

  it('walks every page of a list', async () => {
    const items = [1, 2, 3, 4, 5].map((id) => ({ id }));
    const server = await startServer((request) => {
      const url = new URL(request.path, 'http://x');
      const page = Number(url.searchParams.get('page'));
      const size = Number(url.searchParams.get('page_size'));
      const data = items.slice((page - 1) * size, page * size);
      return { status: 200, body: { data, pagination: { page, page_size: size, total: items.length, total_pages: Math.ceil(items.length / size) }, meta } };
    });
    const berth = new Berth({ baseUrl: server.url, token: 'tok' });
    const seenIds: unknown[] = [];
    for await (const plugin of berth.paginate(berth.plugins.list, { id: 7, env: 'staging', page_size: 2 })) seenIds.push((plugin as any).id);
    expect(seenIds).toEqual([1, 2, 3, 4, 5]);
    expect(server.seen.map((request) => request.path)).toEqual([1, 2, 3].map((page) => `/v1/sites/7/environments/staging/plugins?page=${page}&page_size=2`));
  });
});

describe('waitForOperation', () => {
  it('reports each change of status, progress or step and answers the succeeded operation', async () => {
    const states = [
      operation('queued', 0, null),
      operation('running', 10, 'allocate'),
      operation('running', 10, 'allocate'),
      operation('running', 60, 'install'),
      operation('succeeded', 100, null),
    ];
    const server = await startServer((_request, index) => ({ status: 200, body: { data: states[Math.min(index, states.length - 1)], meta } }));
    const berth = new Berth({ baseUrl: server.url, token: 'tok' });
    const reported: string[] = [];
    const final = await berth.waitForOperation(states[0]!.id, {
      pollIntervalMs: 10,
      onProgress: (current) => void reported.push(`${current.status} ${current.progress}`),
    });
    expect(final.status).toBe('succeeded');
    expect(reported).toEqual(['queued 0', 'running 10', 'running 60', 'succeeded 100']);
    expect(server.seen[0]!.path).toBe(`/v1/operations/${states[0]!.id}`);
  });

  it('throws OperationFailedError with the failed step and the reason', async () => {
    const failed = operation('failed', 40, null, { step: 'install', message: 'wp core install exited 1' });
    const server = await startServer(() => ({ status: 200, body: { data: failed, meta } }));
    const error = await new Berth({ baseUrl: server.url, token: 'tok' }).waitForOperation(failed.id, { pollIntervalMs: 10 }).catch((caught) => caught);
    expect(error).toBeInstanceOf(OperationFailedError);
    expect(error).toMatchObject({ step: 'install', reason: 'wp core install exited 1', operation: { status: 'failed' } });
  });
});

describe('signIn', () => {
  it('approves a new device with the e-mailed code through the callback, then finishes with the pre-auth token', async () => {
    const server = await startServer((request) => {
      const body = request.body ? JSON.parse(request.body) : {};
      if (request.path === '/v1/auth/login' && body.password) {
        return {
          status: 403,
          body: v1Error('AUTHORIZATION_ERROR', 'new device', {
            reason: 'device_approval_required',
            pre_auth_token: 'pre-auth-token-0123456789',
            device_fingerprint: body.device_fingerprint,
          }),
        };
      }
      if (request.path === '/api/v1/auth/device/challenge') return { status: 200, body: { message: 'sent' } };
      if (request.path === '/api/v1/auth/device/approve')
        return body.otp_code === '123456'
          ? { status: 200, body: { message: 'trusted' } }
          : { status: 401, body: { detail: 'wrong', code: 'not_authenticated' } };
      if (request.path === '/v1/auth/login' && body.pre_auth_token === 'pre-auth-token-0123456789') {
        return {
          status: 200,
          body: { data: { access_token: 'access-jwt', token_type: 'Bearer', expires_in: 21600, session_id: 's', team_id: 1, user_id: 1 }, meta },
        };
      }
      if (request.path === '/v1/me') return { status: 200, body: { data: { id: 1 }, meta } };
      return { status: 404, body: v1Error('NOT_FOUND', request.path) };
    });
    const approvals: unknown[] = [];
    const berth = await Berth.signIn({
      baseUrl: server.url,
      email: 'ops@example.com',
      password: 'secret',
      deviceFingerprint: 'ci-runner-0001',
      onDeviceApproval: async (info) => (approvals.push(info), '123456'),
    });
    await berth.me.get();
    expect(approvals).toEqual([{ email: 'ops@example.com', deviceFingerprint: 'ci-runner-0001' }]);
    expect(server.seen.map((request) => request.path)).toEqual([
      '/v1/auth/login',
      '/api/v1/auth/device/challenge',
      '/api/v1/auth/device/approve',
      '/v1/auth/login',
      '/v1/me',
    ]);
    expect(JSON.parse(server.seen[3]!.body)).toEqual({ pre_auth_token: 'pre-auth-token-0123456789', device_fingerprint: 'ci-runner-0001' });
    expect(server.seen[0]!.headers.authorization).toBeUndefined();
    expect(server.seen[4]!.headers.authorization).toBe('Bearer access-jwt');
  });
});
