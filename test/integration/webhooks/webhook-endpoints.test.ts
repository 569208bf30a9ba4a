import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seal } from '../../../shared/crypto/sealed.ts';
import { newEventId } from '../../../shared/domains/webhooks/events.ts';
import { deliverWebhookProcessor } from '../../../workers/webhooks/deliver.processor.ts';
import { newSigningSecret } from '../../../shared/domains/webhooks/signing.ts';
import { accessTokenOf, createOwner, type TestUser } from '../../helpers/factories.ts';
import { startStack, workerDepsOf, type Stack } from '../../helpers/stack.ts';
import { addMember, call, failedFields } from '../../helpers/team-members.ts';
import { WebhookReceiver } from '../../helpers/webhook-receiver.ts';

/**
 * Webhook endpoints as a team manages them, with the SSRF guard on (as in production): internal
 * targets are refused when saved, and again at delivery time for a name that resolves inside.
 */
let stack: Stack;
let owner: TestUser;
let token = '';
let receiver: WebhookReceiver;
// a literal public address: saving it asks no resolver (CI machines may have none)
const PUBLIC_URL = 'https://93.184.215.14/berth';

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  // no workers: this file's one attempt is made by calling the delivery's processor (the guard is on)
  stack = await startStack({ workers: false, env: { WEBHOOK_RETRY_SCHEDULE: '5m' } });
  owner = await createOwner(stack.ctx.db);
  token = await accessTokenOf(stack.client(), owner);
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

describe('webhook endpoints', () => {
  it('are created with a secret shown to managers, listed, changed and removed', async () => {
    const created = await call(stack.client(), 'POST', '/v1/webhooks', token, {
      url: PUBLIC_URL,
      description: 'Slack relay',
      event_types: ['site.*', 'backup.completed', 'site.*'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.id;
    expect(created.headers.get('location')).toBe(`/v1/webhooks/${id}`);
    expect(created.body.data).toMatchObject({
      url: PUBLIC_URL,
      description: 'Slack relay',
      event_types: ['backup.completed', 'site.*'],
      enabled: true,
      disabled_reason: null,
      failing_since: null,
    });
    expect(created.body.data.secret).toMatch(/^whsec_/);
    const stored = await stack.ctx.db('webhook_endpoints').where({ id }).first();
    expect(JSON.stringify(stored)).not.toContain(created.body.data.secret.slice(6));

    const listed = await call(stack.client(), 'GET', '/v1/webhooks', token);
    expect(listed.body.data.map((row: any) => row.id)).toContain(id);
    expect(listed.body.data[0].secret).toBeUndefined();
    expect((await call(stack.client(), 'GET', `/v1/webhooks/${id}/secret`, token)).body.data.secret).toBe(created.body.data.secret);

    const changed = await call(stack.client(), 'PATCH', `/v1/webhooks/${id}`, token, { event_types: [], enabled: false });
    expect(changed.body.data).toMatchObject({ event_types: [], enabled: false, disabled_reason: 'manual' });
    expect((await call(stack.client(), 'DELETE', `/v1/webhooks/${id}`, token)).status).toBe(204);
    expect((await call(stack.client(), 'GET', `/v1/webhooks/${id}`, token)).status).toBe(404);
  });

  it('refuses what is not a usable URL or names no event, each field named (422)', async () => {
    for (const url of ['not a url', 'ftp://example.com/x', 'https://user:pw@example.com/', 'https://example.com/#frag', 'javascript:alert(1)']) {
      const reply = await call(stack.client(), 'POST', '/v1/webhooks', token, { url });
      expect(reply.status, url).toBe(422);
      expect(failedFields(reply)).toEqual(['url']);
    }
    const unknown = await call(stack.client(), 'POST', '/v1/webhooks', token, { url: PUBLIC_URL, event_types: ['site.exploded'] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details.fields[0]).toMatchObject({ field: 'event_types', message: expect.stringContaining('"site.exploded"') });
    expect((await call(stack.client(), 'POST', '/v1/webhooks', token, { url: PUBLIC_URL, secret: 'mine' })).status).toBe(422);
    expect((await call(stack.client(), 'POST', '/v1/webhooks/1/rotate-secret', token, { expire_previous_in_seconds: -1 })).status).toBe(422);
    expect((await call(stack.client(), 'GET', '/v1/webhooks/abc', token)).status).toBe(404);
    expect((await call(stack.client(), 'GET', '/v1/webhooks/1/deliveries/not-a-uuid', token)).status).toBe(404);
    const nul = await call(stack.client(), 'POST', '/v1/webhooks', token, { url: PUBLIC_URL, description: 'a\u0000b' });
    expect(nul.status).toBe(422);
    expect(failedFields(nul)).toEqual(['description']);
    const mine = (await call(stack.client(), 'POST', '/v1/webhooks', token, { url: PUBLIC_URL })).body.data.id;
    expect((await call(stack.client(), 'GET', `/v1/webhooks/${mine}/deliveries?event_type=%00`, token)).status).toBe(422);
    expect((await call(stack.client(), 'DELETE', `/v1/webhooks/${mine}`, token)).status).toBe(204);
  });

  it('refuses internal targets, however they are written', async () => {
    const internal = [
      'http://127.0.0.1/',
      'http://localhost:8080/',
      'http://[::1]/',
      'http://10.0.0.5/',
      'http://169.254.169.254/latest/meta-data/',
      'http://0x7f000001/',
      'http://2130706433/',
      'http://[::ffff:127.0.0.1]/',
      'http://192.168.1.1/',
      'http://100.64.0.1/',
      'http://0.0.0.0/',
    ];
    for (const url of internal) {
      const reply = await call(stack.client(), 'POST', '/v1/webhooks', token, { url });
      expect(reply.status, url).toBe(422);
      expect(reply.body.error.details.fields[0].message, url).toMatch(/^must be reachable on the public internet \(.* is an internal address|resolves to/);
    }
  });

  it('does not send to a name that resolves to an internal address when the attempt connects (DNS rebinding)', async () => {
    // saved while it resolved elsewhere: written directly, as the API would have accepted it then
    const [row] = await stack.ctx
      .db('webhook_endpoints')
      .insert({
        team_id: owner.teamId,
        url: receiver.url('/rebound', 'localhost'),
        secret_sealed: seal(stack.ctx.config.secrets.secretKey, newSigningSecret()),
      })
      .returning('id');
    const eventId = newEventId();
    await stack.ctx.db('webhook_events').insert({ id: eventId, team_id: owner.teamId, type: 'site.renamed', body: '{}', fanned_out_at: new Date() });
    const [made] = await stack.ctx.db('webhook_deliveries').insert({ endpoint_id: row.id, event_id: eventId, next_attempt_at: new Date() }).returning('id');
    await deliverWebhookProcessor(workerDepsOf(stack), { deliveryId: made.id }, undefined as never);
    const delivery = (await call(stack.client(), 'GET', `/v1/webhooks/${row.id}/deliveries/${made.id}`, token)).body.data;
    expect(delivery.attempts_log[0]).toMatchObject({ response: null });
    // which address it was stays unsaid (it would map the internal network)
    expect(delivery.attempts_log[0].error).toBe('not sent: localhost resolves to an internal address');
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1 });
    expect(receiver.received).toEqual([]);
  });

  it('need webhooks:read to be seen (developers and viewers have it) and webhooks:manage to be changed or to show the secret', async () => {
    const created = await call(stack.client(), 'POST', '/v1/webhooks', token, { url: PUBLIC_URL });
    const developer = await accessTokenOf(stack.client(), await addMember(stack.ctx.db, owner, 'developer'));
    const viewer = await accessTokenOf(stack.client(), await addMember(stack.ctx.db, owner, 'viewer'));
    const billing = await accessTokenOf(stack.client(), await addMember(stack.ctx.db, owner, 'billing'));
    const admin = await accessTokenOf(stack.client(), await addMember(stack.ctx.db, owner, 'admin'));
    const denied = await call(stack.client(), 'GET', '/v1/webhooks', billing);
    expect(denied.status).toBe(403);
    expect(denied.body.error.details.permission).toBe('webhooks:read');
    for (const reader of [developer, viewer]) {
      const listed = await call(stack.client(), 'GET', '/v1/webhooks', reader);
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((endpoint: { id: string }) => endpoint.id)).toContain(created.body.data.id);
      expect(JSON.stringify(listed.body)).not.toContain(created.body.data.secret);
      expect((await call(stack.client(), 'GET', `/v1/webhooks/${created.body.data.id}/deliveries`, reader)).status).toBe(200);
      const secret = await call(stack.client(), 'GET', `/v1/webhooks/${created.body.data.id}/secret`, reader);
      expect([secret.status, secret.body.error?.details?.permission]).toEqual([403, 'webhooks:manage']);
    }
    expect((await call(stack.client(), 'POST', '/v1/webhooks', viewer, { url: PUBLIC_URL })).status).toBe(403);
    expect((await call(stack.client(), 'POST', '/v1/webhooks', developer, { url: PUBLIC_URL })).status).toBe(403);
    expect((await call(stack.client(), 'GET', `/v1/webhooks/${created.body.data.id}/secret`, admin)).status).toBe(200);
    expect((await call(stack.client(), 'PATCH', `/v1/webhooks/${created.body.data.id}`, admin, { description: 'by the admin' })).body.data.description).toBe(
      'by the admin',
    );
  });

  it('are at most 20 per team (409)', async () => {
    const team = await createOwner(stack.ctx.db);
    const teamToken = await accessTokenOf(stack.client(), team);
    const made = await Promise.all(Array.from({ length: 22 }, () => call(stack.client(), 'POST', '/v1/webhooks', teamToken, { url: PUBLIC_URL })));
    expect(made.filter((reply) => reply.status === 201)).toHaveLength(20);
    expect(made.filter((reply) => reply.status === 409)).toHaveLength(2);
  });

  it("list every event type, and the OpenAPI document describes each one's body in `webhooks`", async () => {
    const types = (await call(stack.client(), 'GET', '/v1/webhooks/event-types', token)).body.data.map((type: any) => type.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'site.created',
        'backup.completed',
        'backup.create_failed',
        'certificate.issued',
        'domain.verified',
        'member.removed',
        'operation.failed',
        'webhook.test',
      ]),
    );
    const document = (await stack.client().get('/openapi.json')).body;
    expect(Object.keys(document.webhooks).sort()).toEqual([...types].sort());
    const siteCreated = document.webhooks['site.created'].post;
    expect(siteCreated.parameters.map((parameter: any) => parameter.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    expect(siteCreated.requestBody.content['application/json'].schema.properties.data.properties.operation.required).toContain('kind');
  });
});
