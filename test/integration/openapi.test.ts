import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ workers: false });
});
afterAll(async () => {
  await stack?.stop();
});

const specEndpoints = [
  'get /api/v1/auth/status', 'get /api/v1/auth/me', 'post /api/v1/auth/login', 'post /api/v1/auth/session-exchange',
  'post /api/v1/auth/refresh', 'post /api/v1/auth/logout', 'post /api/v1/auth/register-owner', 'post /api/v1/auth/register-from-invite',
  'post /api/v1/auth/email/verification/request', 'post /api/v1/auth/email/verification/confirm',
  'post /api/v1/auth/password-reset/request', 'post /api/v1/auth/password-reset/confirm',
  'post /api/v1/auth/device/challenge', 'post /api/v1/auth/device/approve', 'post /api/v1/auth/login/approve', 'post /api/v1/auth/login/deny',
  'post /api/v1/auth/totp/setup', 'post /api/v1/auth/totp/verify', 'post /api/v1/auth/totp/backup', 'get /api/v1/auth/login-activity',
  'get /api/v1/auth/trusted-devices', 'post /api/v1/auth/trusted-devices/revoke',
  // ours, for the concurrent-login decision the spec leaves open
  'post /api/v1/auth/concurrent-login/approve', 'post /api/v1/auth/concurrent-login/deny', 'get /api/v1/auth/concurrent-login/requests',
];

async function openApi(): Promise<{ openapi: string; paths: Record<string, Record<string, { operationId: string; responses: object; requestBody?: unknown }>> }> {
  const reply = await stack.client().get('/openapi.json');
  expect(reply.status).toBe(200);
  return reply.body;
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 and lists every authentication endpoint of the spec', async () => {
    const document = await openApi();
    expect(document.openapi).toBe('3.1.0');
    const documented = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`));
    expect(documented.filter((entry) => entry.includes(' /api/v1/auth/')).sort()).toEqual([...specEndpoints].sort());
    expect(documented).toContain('get /v1/me');
  });

  it('documents only routes the app answers', async () => {
    const document = await openApi();
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const method of Object.keys(methods)) {
        const reply = await stack.client().request(method.toUpperCase(), path, method === 'get' ? {} : { json: {} });
        expect(reply.body?.code, `${method} ${path}`).not.toBe('not_found');
      }
    }
  });

  it('gives each operation a unique id, responses, and a body schema for every POST', async () => {
    const document = await openApi();
    const operations = Object.values(document.paths).flatMap((methods) => Object.entries(methods));
    const ids = operations.map(([, operation]) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [method, operation] of operations) {
      expect(Object.keys(operation.responses).length).toBeGreaterThan(0);
      const withoutBody = ['authPostRefresh', 'authPostLogout', 'authPostTotpSetup'];
      if (method === 'post' && !withoutBody.includes(operation.operationId)) expect(operation.requestBody, operation.operationId).toBeDefined();
    }
  });

  it('describes the login body from the same schema the route validates with', async () => {
    const document = await openApi();
    const schema = (document.paths['/api/v1/auth/login']!.post!.requestBody as any).content['application/json'].schema;
    expect(schema.required.sort()).toEqual(['email', 'password']);
    expect(schema.properties.remember_me).toMatchObject({ type: 'boolean', default: false });
  });
});

describe('documentation pages', () => {
  it.each(['/docs', '/redoc'])('%s is served with local scripts only', async (page) => {
    const reply = await stack.client().get(page);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/text\/html/);
    const scripts = [...String(reply.body).matchAll(/<script src="([^"]+)"/g)].map((match) => match[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      expect(script.startsWith('/')).toBe(true);
      const asset = await stack.client().get(script);
      expect(asset.status, script).toBe(200);
    }
  });
});
