import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentedRouter, type RouteDoc } from '../../../api/openapi/documented-router.ts';
import { requestContext } from '../../../api/middleware/request-context.ts';
import { authorize, v1Router } from '../../../api/v1/authorize.ts';
import { sendData } from '../../../api/v1/envelope.ts';
import { permissionsRoutes } from '../../../api/teams/permissions.routes.ts';
import { identifyPrincipal } from '../../../api/v1/principal.ts';
import { v1ErrorHandler } from '../../../api/v1/v1-errors.ts';
import { bearer } from '../../helpers/client.ts';
import { accessTokenOf, createOwner } from '../../helpers/factories.ts';
import { serveProbeApp, type ProbeApp } from '../../helpers/probe-app.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { setBuiltinRole } from '../../helpers/team-members.ts';

let stack: Stack;
let probe: ProbeApp;

/**
 * No route of the app checks a permission yet, and the app gets no fake route: a tiny app built the
 * way api/app.ts builds /v1 (real principal, real error handler) serves one route declaring sites:read.
 */
function startPermissionsProbe(): Promise<ProbeApp> {
  const sites = v1Router().route(
    {
      method: 'get',
      path: '/probe-sites/:id',
      operationId: 'probe.get',
      summary: 'Probe',
      tags: ['test'],
      permission: 'sites:read',
      responses: { 200: { description: 'Allowed' } },
    },
    (req, res) => sendData(req, res, { id: req.params.id }),
  );
  const surface = new DocumentedRouter().include(sites);
  surface.include(permissionsRoutes(stack.ctx, { prefix: '/v1', docs: () => surface.docs }));
  const app = express();
  app.use(requestContext(stack.ctx.logger));
  app.use('/v1', identifyPrincipal(stack.ctx), surface.router, v1ErrorHandler);
  return serveProbeApp(app);
}

beforeAll(async () => {
  stack = await startStack({ workers: false });
  probe = await startPermissionsProbe();
});
afterAll(async () => {
  await new Promise((resolve) => probe?.server.close(resolve));
  await stack?.stop();
});

describe('GET /v1/permissions', () => {
  it('lists the permissions the built-in roles name, not yet checked by a route, for any caller', async () => {
    const viewer = await createOwner(stack.ctx.db);
    await setBuiltinRole(stack.ctx.db, viewer, 'viewer');
    const reply = await stack.client().get('/v1/permissions', bearer(await accessTokenOf(stack.client(), viewer)));
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(['data', 'meta']);
    const byName = new Map((reply.body.data as Array<{ permission: string }>).map((entry) => [entry.permission, entry]));
    expect(byName.get('teams:read')).toEqual({
      permission: 'teams:read',
      routes: ['GET /v1/entitlements', 'GET /v1/teams/{id}'],
      checked: true,
      roles: ['owner', 'admin', 'developer', 'billing', 'viewer'],
    });
    expect(byName.get('sites:*')).toEqual({
      permission: 'sites:*',
      description: 'Every action on sites',
      routes: [
        'DELETE /v1/sites/{id}',
        'DELETE /v1/sites/{id}/environments/{env}',
        'GET /v1/sites',
        'GET /v1/sites/php-versions',
        'GET /v1/sites/{id}',
        'GET /v1/sites/{id}/environments',
        'GET /v1/sites/{id}/environments/{env}',
        'GET /v1/sites/{id}/environments/{env}/logs',
        'GET /v1/sites/{id}/environments/{env}/logs/stream',
        'PATCH /v1/sites/{id}',
        'PATCH /v1/sites/{id}/environments/{env}',
        'PATCH /v1/sites/{id}/environments/{env}/cache',
        'PATCH /v1/sites/{id}/environments/{env}/https',
        'POST /v1/sites',
        'POST /v1/sites/{id}/clone',
        'POST /v1/sites/{id}/environments',
        'POST /v1/sites/{id}/environments/{env}/cache/purge',
        'POST /v1/sites/{id}/environments/{env}/push',
        'POST /v1/sites/{id}/environments/{env}/restart',
        'PUT /v1/sites/{id}/environments/{env}/password-protection',
      ],
      checked: true,
      roles: ['owner', 'admin', 'developer'],
    });
    expect(byName.get('sites:push')).toMatchObject({ routes: ['POST /v1/sites/{id}/environments/{env}/push'], checked: true });
    expect(byName.get('sites:cache')).toMatchObject({
      routes: ['POST /v1/sites/{id}/environments/{env}/cache/purge'],
      checked: true,
      roles: ['owner', 'admin', 'developer'],
    });
    expect(byName.get('sites:logs')).toMatchObject({
      routes: ['GET /v1/sites/{id}/environments/{env}/logs', 'GET /v1/sites/{id}/environments/{env}/logs/stream'],
      checked: true,
      roles: ['owner', 'admin', 'developer'],
    });
    expect(byName.get('wordpress:install')).toMatchObject({
      routes: ['GET /v1/uploads/{id}', 'POST /v1/sites/{id}/environments/{env}/plugins', 'POST /v1/sites/{id}/environments/{env}/themes', 'POST /v1/uploads'],
      checked: true,
      roles: ['owner', 'admin', 'developer'],
    });
    expect(byName.get('wordpress:cli')).toMatchObject({
      routes: ['POST /v1/sites/{id}/environments/{env}/wp-cli'],
      checked: true,
      roles: ['owner', 'admin', 'developer'],
    });
    expect(byName.get('wordpress:search_replace')).toMatchObject({
      routes: ['POST /v1/sites/{id}/environments/{env}/search-replace'],
      checked: true,
      roles: ['owner', 'admin', 'developer'],
    });
    expect(byName.get('billing:*')).toMatchObject({ roles: ['owner', 'billing'] });
    expect(byName.has('*')).toBe(false);
    const names = [...byName.keys()];
    expect(names).toEqual([...names].sort());
  });

  it('answers 401 AUTHENTICATION_ERROR without credentials', async () => {
    const reply = await stack.client().get('/v1/permissions');
    expect(reply.status).toBe(401);
    expect(reply.body.error.code).toBe('AUTHENTICATION_ERROR');
  });

  it('is in the OpenAPI document', async () => {
    const reply = await stack.client().get('/openapi.json');
    expect(reply.body.paths['/v1/permissions'].get.security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }]);
  });

  it('lists a checked permission with the routes that check it, generated from their docs', async () => {
    const owner = await createOwner(stack.ctx.db);
    const reply = await probe.client().get('/v1/permissions', bearer(await accessTokenOf(stack.client(), owner)));
    expect(reply.status).toBe(200);
    const byName = new Map((reply.body.data as Array<{ permission: string }>).map((entry) => [entry.permission, entry]));
    expect(byName.get('sites:read')).toEqual({
      permission: 'sites:read',
      routes: ['GET /v1/probe-sites/{id}'],
      checked: true,
      roles: ['owner', 'admin', 'developer', 'viewer'],
    });
    expect(byName.get('sites:*')).toMatchObject({ routes: ['GET /v1/probe-sites/{id}'], checked: true });
    expect(byName.get('teams:read')).toMatchObject({ routes: [], checked: false });
  });
});

describe('a route declaring a permission', () => {
  it('lets the viewer (sites:read) and the owner (*) through, refuses billing (no sites:*) with 403', async () => {
    const user = await createOwner(stack.ctx.db);
    const token = await accessTokenOf(stack.client(), user);
    expect((await probe.client().get('/v1/probe-sites/7', bearer(token))).body.data).toEqual({ id: '7' });

    await setBuiltinRole(stack.ctx.db, user, 'viewer');
    expect((await probe.client().get('/v1/probe-sites/7', bearer(token))).status).toBe(200);

    await setBuiltinRole(stack.ctx.db, user, 'billing');
    const refused = await probe.client().get('/v1/probe-sites/7', bearer(token));
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('AUTHORIZATION_ERROR');
    expect(refused.body.error.details.reason).toBe('missing_permission');
    expect(refused.body.error.details.permission).toBe('sites:read');
    expect(refused.body.error.message).toContain('sites:read');
    expect(refused.body.meta.request_id).toBe(refused.headers.get('x-request-id'));
  });

  it('sees a role change on the same bearer token at once, both ways', async () => {
    const user = await createOwner(stack.ctx.db);
    await setBuiltinRole(stack.ctx.db, user, 'billing');
    const token = await accessTokenOf(stack.client(), user);
    expect((await probe.client().get('/v1/probe-sites/1', bearer(token))).status).toBe(403);
    await setBuiltinRole(stack.ctx.db, user, 'developer');
    expect((await probe.client().get('/v1/probe-sites/1', bearer(token))).status).toBe(200);
    await setBuiltinRole(stack.ctx.db, user, 'billing');
    expect((await probe.client().get('/v1/probe-sites/1', bearer(token))).status).toBe(403);
  });

  it('answers 401, not 403, without credentials', async () => {
    const reply = await probe.client().get('/v1/probe-sites/1');
    expect(reply.status).toBe(401);
    expect(reply.body.error.code).toBe('AUTHENTICATION_ERROR');
  });

  it('cannot be declared on a router that does not enforce it, nor with a wildcard', () => {
    const doc: RouteDoc = { method: 'get', path: '/x', operationId: 'x.get', summary: 'x', tags: [], responses: {} };
    expect(() => new DocumentedRouter().route({ ...doc, permission: 'sites:read' }, (_req, res) => res.end())).toThrow(/no permission guard/);
    expect(() => v1Router().route({ ...doc, permission: 'sites:*' }, (_req, res) => res.end())).toThrow(/not a <resource>:<action> permission/);
    expect(() => authorize({ ...doc, permission: 'Sites' })).toThrow();
  });
});
