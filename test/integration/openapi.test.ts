import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Router } from 'express';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_PREFIX, authRoutes } from '../../api/auth/auth.routes.ts';
import { V1_PREFIX, v1Routes } from '../../api/v1/v1.routes.ts';
import { AGENT_PREFIX, agentRoutes } from '../../api/agent/agent.routes.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ workers: false });
});
afterAll(async () => {
  await stack?.stop();
});
// Some tests block the event loop for seconds (schema compiles, building the routers), past the
// server's keep-alive timeout: let the server close its idle sockets and the client see it before
// the next test reuses one (else ECONNRESET under load).
beforeEach(async () => {
  await new Promise((resolve) => setTimeout(resolve, 100));
});

const specEndpoints = [
  'get /api/v1/auth/status',
  'get /api/v1/auth/me',
  'post /api/v1/auth/login',
  'post /api/v1/auth/session-exchange',
  'post /api/v1/auth/refresh',
  'post /api/v1/auth/logout',
  'post /api/v1/auth/register-owner',
  'post /api/v1/auth/register-from-invite',
  'post /api/v1/auth/email/verification/request',
  'post /api/v1/auth/email/verification/confirm',
  'post /api/v1/auth/password-reset/request',
  'post /api/v1/auth/password-reset/confirm',
  'post /api/v1/auth/device/challenge',
  'post /api/v1/auth/device/approve',
  'post /api/v1/auth/login/approve',
  'post /api/v1/auth/login/deny',
  'post /api/v1/auth/totp/setup',
  'post /api/v1/auth/totp/verify',
  'post /api/v1/auth/totp/backup',
  'get /api/v1/auth/login-activity',
  'get /api/v1/auth/trusted-devices',
  'post /api/v1/auth/trusted-devices/revoke',
  // ours, for the concurrent-login decision the spec leaves open
  'post /api/v1/auth/concurrent-login/approve',
  'post /api/v1/auth/concurrent-login/deny',
  'get /api/v1/auth/concurrent-login/requests',
];

async function openApi(): Promise<{
  openapi: string;
  webhooks?: Record<string, unknown>;
  components: { schemas: Record<string, object> };
  paths: Record<string, Record<string, { operationId: string; responses: object; requestBody?: unknown }>>;
}> {
  const reply = await stack.client().get('/openapi.json');
  expect(reply.status).toBe(200);
  return reply.body;
}

type Layer = { route?: { path: string; methods: Record<string, boolean> }; handle: { stack?: Layer[] } };

/** Every `METHOD path` an Express router answers, nested routers included, as OpenAPI paths. */
function routesOf(router: Router, prefix: string): string[] {
  const walk = (stack: Layer[]): string[] =>
    stack.flatMap((layer) => {
      if (layer.route) {
        const path = `${prefix}${layer.route.path}`.replace(/:(\w+)/g, '{$1}');
        return Object.keys(layer.route.methods)
          .filter((method) => method !== '_all')
          .map((method) => `${method} ${path}`);
      }
      return layer.handle.stack ? walk(layer.handle.stack) : [];
    });
  return walk((router as unknown as { stack: Layer[] }).stack);
}

describe('the OpenAPI document', () => {
  it('passes an OpenAPI 3.1 validator, and every schema in it compiles as JSON Schema 2020-12', async () => {
    const document = await openApi();
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);

    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const schemas: Array<[string, object]> = [];
    const visit = (node: unknown, where: string): void => {
      if (node === null || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'schema' && value !== null && typeof value === 'object') schemas.push([where, value]);
        else visit(value, `${where}/${key}`);
      }
    };
    visit(document.paths, '#/paths');
    visit(document.webhooks, '#/webhooks');
    expect(schemas.length).toBeGreaterThan(100);
    const { components } = document;
    for (const [name, schema] of Object.entries(components.schemas)) schemas.push([`#/components/schemas/${name}`, schema]);
    // Each distinct schema once (most answers share one error schema by reference now).
    const distinct = [...new Map(schemas.map(([where, schema]) => [JSON.stringify(schema), [where, schema] as const])).values()];
    for (const [index, [where, schema]] of distinct.entries()) {
      // With the components beside it, so its `#/components/schemas/...` references resolve.
      expect(() => ajv.compile({ ...schema, components }), where).not.toThrow();
      // seconds of compiling would hold the event loop the API shares: its idle keep-alive sockets
      // would close under the next test's request (ECONNRESET)
      if (index % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
    }
  });

  it('is the committed snapshot, docs/openapi.json: every API change shows as its diff (`npm test -- test/integration/openapi.test.ts -u` rewrites it)', async () => {
    const document = await openApi();
    await expect(`${JSON.stringify(document, null, 2)}\n`).toMatchFileSnapshot('../../docs/openapi.json');
  });

  it('documents every route Express serves, and routes every documented operation', async () => {
    const document = await openApi();
    const documented = Object.entries(document.paths)
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`))
      .sort();
    const routed = [
      ...routesOf(authRoutes(stack.ctx).router, AUTH_PREFIX),
      ...routesOf(v1Routes(stack.ctx).router, V1_PREFIX),
      ...routesOf(agentRoutes(stack.ctx).router, AGENT_PREFIX),
    ].sort();
    expect(routed.length).toBeGreaterThan(25);
    expect(routed).toEqual(documented);
  });

  it('states the /v1 conventions on every /v1 operation: request id, rate-limit headers, Idempotency-Key, the shared errors', async () => {
    const document = await openApi();
    const v1 = Object.entries(document.paths).filter(([path]) => path.startsWith('/v1/') && !path.startsWith('/v1/agent/'));
    expect(v1.length).toBeGreaterThan(0);
    for (const [path, methods] of v1) {
      for (const [method, operation] of Object.entries(methods) as Array<[string, any]>) {
        const where = `${method} ${path}`;
        expect(Object.keys(operation.responses), where).toEqual(expect.arrayContaining(['422', '429', '500']));
        for (const response of Object.values(operation.responses) as any[]) {
          expect(Object.keys(response.headers ?? {}), where).toEqual(
            expect.arrayContaining(['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
          );
        }
        const headerParameters = (operation.parameters ?? []).filter((parameter: any) => parameter.in === 'header').map((parameter: any) => parameter.name);
        if (method === 'get') expect(headerParameters, where).not.toContain('Idempotency-Key');
        else {
          expect(headerParameters, where).toContain('Idempotency-Key');
          expect(Object.keys(operation.responses), where).toContain('409');
        }
        if (operation.security.length > 0) expect(Object.keys(operation.responses), where).toContain('401');
        expect(operation.responses['429'].headers['Retry-After'], where).toBeDefined();
      }
    }
  });

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

  it('gives each operation a unique id, responses, and a body schema for every POST but the input-less actions', async () => {
    const document = await openApi();
    const operations = Object.values(document.paths).flatMap((methods) => Object.entries(methods));
    const ids = operations.map(([, operation]) => operation.operationId);
    const bodiless: string[] = [];
    expect(new Set(ids).size).toBe(ids.length);
    // `<resource>.<verb>`: the name both SDKs give the call.
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z]*\.[a-z][A-Za-z]*$/);
    for (const [method, operation] of operations) {
      expect(Object.keys(operation.responses).length).toBeGreaterThan(0);
      if (method === 'post' && !operation.requestBody) bodiless.push(operation.operationId);
    }
    // Actions that take no input; any other POST must document its body.
    expect(bodiless.sort()).toEqual(
      [
        'browserAuth.logout',
        'browserAuth.refresh',
        'browserAuth.setupTotp',
        'operations.cancel',
        'environments.restart',
        'plugins.activate',
        'plugins.deactivate',
        'themes.activate',
        'wordpress.refresh',
        'domains.verify',
        'certificates.issue',
        'webhooks.sendTest',
        'webhookDeliveries.redeliver',
        'invoices.void',
        'invoices.pay',
        'invoices.markUncollectible',
        'subscription.resume',
        'creditNotes.retryRefund',
        'nodes.ping',
      ].sort(),
    );
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
