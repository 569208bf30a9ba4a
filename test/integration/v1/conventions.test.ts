import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../helpers/client.ts';
import { accessTokenOf, createOwner, signIn, type TestUser } from '../../helpers/factories.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';

let stack: Stack;
let owner: TestUser;
let accessToken: string;
beforeAll(async () => {
  stack = await startStack({ workers: false });
  owner = await createOwner(stack.ctx.db);
  accessToken = await accessTokenOf(stack.client(), owner);
});
afterAll(async () => {
  await stack?.stop();
});

describe('/v1 envelopes and authentication', () => {
  it('answers GET /v1/me with {data, meta} for a bearer access token', async () => {
    const reply = await stack.client().get('/v1/me', bearer(accessToken));
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(['data', 'meta']);
    expect(reply.body.data).toMatchObject({
      user_id: owner.userId,
      team_id: owner.teamId,
      role_name: 'owner',
      permissions: ['*'],
      email: owner.email,
      two_factor_enabled: false,
    });
    expect(reply.body.meta.request_id).toBe(reply.headers.get('x-request-id'));
    expect(new Date(reply.body.meta.timestamp).toISOString()).toBe(reply.body.meta.timestamp);
  });

  it('accepts the panel cookie session', async () => {
    const client = stack.client();
    await signIn(client, owner);
    const reply = await client.get('/v1/me');
    expect(reply.status).toBe(200);
    expect(reply.body.data.user_id).toBe(owner.userId);
  });

  it.each([
    ['no credentials', {}],
    ['a malformed Authorization header', { headers: { authorization: 'Token abc' } }],
    ['a garbage bearer token', { headers: { authorization: 'Bearer not.a.jwt' } }],
  ])('answers 401 AUTHENTICATION_ERROR for %s', async (_label, options) => {
    const reply = await stack.client().get('/v1/me', options);
    expect(reply.status).toBe(401);
    expect(reply.body.error.code).toBe('AUTHENTICATION_ERROR');
    expect(typeof reply.body.error.message).toBe('string');
    expect(reply.body.error.details).toEqual({});
    expect(reply.body.meta.request_id).toBe(reply.headers.get('x-request-id'));
  });

  it('refuses a pre-auth token and a refresh token as bearer tokens', async () => {
    const login = await stack.client().post('/api/v1/auth/login', { email: owner.email, password: owner.password });
    const refresh = (await signIn(stack.client(), owner)).setCookies.find((cookie) => cookie.name === 'svc_refresh')!.value;
    for (const token of [login.body.pre_auth_token as string, refresh]) {
      const reply = await stack.client().get('/v1/me', bearer(token));
      expect(reply.status).toBe(401);
      expect(reply.body.error.code).toBe('AUTHENTICATION_ERROR');
    }
  });

  it('stops a bearer token the moment its session logs out', async () => {
    const client = stack.client();
    const token = await accessTokenOf(client, owner);
    expect((await stack.client().get('/v1/me', bearer(token))).status).toBe(200);
    expect((await client.post('/api/v1/auth/logout')).status).toBe(200);
    expect((await stack.client().get('/v1/me', bearer(token))).status).toBe(401);
  });

  it('answers an unknown /v1 path with 404 NOT_FOUND in the envelope', async () => {
    const reply = await stack.client().get('/v1/no-such-thing', bearer(accessToken));
    expect(reply.status).toBe(404);
    expect(reply.body.error).toMatchObject({ code: 'NOT_FOUND', details: {} });
  });
});

describe('/v1 request bodies', () => {
  it('answers malformed JSON with 422 VALIDATION_ERROR in the /v1 envelope, counted by the rate limiter', async () => {
    const reply = await stack
      .client()
      .request('POST', '/v1/me', { raw: '{"broken":', contentType: 'application/json', headers: { authorization: `Bearer ${accessToken}` } });
    expect(reply.status).toBe(422);
    expect(reply.body.error.code).toBe('VALIDATION_ERROR');
    expect(reply.headers.get('x-ratelimit-limit')).not.toBeNull();
  });

  it('answers a body with U+0000 in any string with 422 naming the field, on /v1 and /auth alike (Postgres text cannot hold it: it was a 500)', async () => {
    const team = await stack
      .client()
      .request('POST', '/v1/api-tokens', { json: { name: 'bad\u0000name', permissions: ['sites:read'] }, headers: { authorization: `Bearer ${accessToken}` } });
    expect(team.status).toBe(422);
    expect(team.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ field: 'name', message: expect.stringContaining('NUL') }] } });
    const deep = await stack.client().request('POST', '/v1/webhooks', {
      json: { url: 'https://93.184.215.14/x', event_types: ['site.renamed', 'x\u0000'] },
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(deep.body.error.details.fields[0].field).toBe('event_types.1');
    const login = await stack.client().request('POST', '/api/v1/auth/login', { json: { email: 'a\u0000@example.test', password: 'whatever' } });
    expect([login.status, login.body.code]).toEqual([422, 'validation_error']);
  });

  it('answers a query string with U+0000 with 422 naming the parameter (it was a 500 on /v1/activity and /v1/operations filters)', async () => {
    for (const path of ['/v1/activity?target_id=%00', '/v1/operations?kind=a%00b']) {
      const reply = await stack.client().get(path, bearer(accessToken));
      expect(reply.status).toBe(422);
      expect(reply.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { fields: [{ field: path.includes('activity') ? 'target_id' : 'kind', message: expect.stringContaining('NUL') }] },
      });
    }
  });

  it('answers a body over 16 kB with 413 PAYLOAD_TOO_LARGE in the /v1 envelope', async () => {
    const reply = await stack
      .client()
      .request('POST', '/v1/me', { json: { padding: 'x'.repeat(17 * 1024) }, headers: { authorization: `Bearer ${accessToken}` } });
    expect(reply.status).toBe(413);
    expect(reply.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
