import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupCreate } from '../../../shared/domains/backups/backups.operations.ts';
import { finishOperation, insertOperations } from '../../../shared/domains/operations/operations.ts';
import { emitEvent } from '../../../shared/domains/webhooks/events.ts';
import { accessTokenOf, createOwner, type TestUser } from '../../helpers/factories.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { addMember, builtinRoleId, call } from '../../helpers/team-members.ts';
import { until } from '../../helpers/until.ts';
import { WebhookReceiver, type ReceivedWebhook } from '../../helpers/webhook-receiver.ts';

/**
 * Deliveries end to end: events written by real changes (the outbox), dispatched by the workers,
 * POSTed to a real HTTP receiver on loopback, their signatures checked with the Standard Webhooks
 * reference library (not our code), and a receiver that fails, hangs, says 410 and recovers.
 */
const RETRY_WAITS_MS = [300, 600, 900];
let stack: Stack;
let receiver: WebhookReceiver;
let owner: TestUser;
let token = '';

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  stack = await startStack({
    env: {
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCHEDULE: RETRY_WAITS_MS.map((ms) => `${ms}ms`).join(','),
      WEBHOOK_TIMEOUT: '3s',
      WEBHOOK_DISPATCH_INTERVAL: '100ms',
    },
  });
  owner = await createOwner(stack.ctx.db);
  token = await accessTokenOf(stack.client(), owner);
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

let paths = 0;
/** An endpoint of the owner's team on its own path of the receiver; returns its id, path and secret. */
async function addEndpoint(body: Record<string, unknown> = {}, as = token): Promise<{ id: number; path: string; secret: string }> {
  const path = `/hook-${++paths}`;
  const reply = await call(stack.client(), 'POST', '/v1/webhooks', as, { url: receiver.url(path), ...body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return { id: reply.body.data.id, path, secret: reply.body.data.secret };
}

/** Makes a member of the owner's team and gives them another role: a `member.role_changed` event. */
async function changeSomeRole(): Promise<number> {
  const member = await addMember(stack.ctx.db, owner, 'viewer');
  const reply = await call(stack.client(), 'PATCH', `/v1/teams/${owner.teamId}/members/${member.userId}`, token, {
    role_id: await builtinRoleId(stack.ctx.db, 'developer'),
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return member.userId;
}

/** The owner's mail saying that the endpoint at `path` was disabled. */
function disabledMail(path: string) {
  return until(
    () => stack.mailbox.to(owner.email).find((message) => /was disabled/.test(message.subject) && message.text.includes(receiver.url(path))),
    `a mail about ${path} being disabled`,
    10_000,
    50,
  );
}

function headersOf(request: ReceivedWebhook): Record<string, string> {
  return Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
}

async function deliveriesOf(endpointId: number, query = ''): Promise<any[]> {
  const reply = await call(stack.client(), 'GET', `/v1/webhooks/${endpointId}/deliveries${query}`, token);
  expect(reply.status).toBe(200);
  return reply.body.data;
}

async function waitForDelivery(endpointId: number, done: (delivery: any) => boolean, timeoutMs = 10_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await deliveriesOf(endpointId)).find(done);
    if (found) return (await call(stack.client(), 'GET', `/v1/webhooks/${endpointId}/deliveries/${found.id}`, token)).body.data;
    if (Date.now() > deadline) throw new Error(`no such delivery within ${timeoutMs} ms: ${JSON.stringify(await deliveriesOf(endpointId))}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('webhook deliveries', () => {
  it("sends a change's event, signed so that the Standard Webhooks reference library verifies it", async () => {
    const endpoint = await addEndpoint({ event_types: ['member.*'] });
    const userId = await changeSomeRole();
    const [request] = await receiver.waitFor(endpoint.path, 1);
    const headers = headersOf(request!);
    expect(headers['content-type']).toBe('application/json');
    expect(headers['user-agent']).toBe('Berth-Webhooks/1');
    expect(headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    const payload = new Webhook(endpoint.secret).verify(request!.body, headers) as any;
    expect(payload).toMatchObject({ type: 'member.role_changed', data: { member: { user_id: userId, role: 'developer' } } });
    expect(new Date(payload.timestamp).getTime()).toBeGreaterThan(Date.now() - 60_000);
    // another team's secret does not verify it
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(request!.body, headers)).toThrow();

    const delivery = await waitForDelivery(endpoint.id, (row) => row.status === 'succeeded');
    expect(delivery).toMatchObject({ event_id: headers['webhook-id'], event_type: 'member.role_changed', attempts: 1, last_status_code: 200, manual: false });
    expect(delivery.attempts_log).toHaveLength(1);
    expect(delivery.attempts_log[0]).toMatchObject({ number: 1, response: { status: 200, body: 'ok', headers: { 'x-receiver': 'test' } }, error: null });
    expect(delivery.attempts_log[0].request.body).toBe(request!.body);
    expect(delivery.attempts_log[0].request.headers['webhook-signature']).toBe(headers['webhook-signature']);
  });

  it("writes an event only when the change commits (the outbox is in the change's transaction)", async () => {
    const endpoint = await addEndpoint({ event_types: ['site.renamed'] });
    await expect(
      stack.ctx.db.transaction(async (trx) => {
        await emitEvent(trx, { teamId: owner.teamId, type: 'site.renamed', data: { site: { id: 1, name: 'rolled back' } } });
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    await stack.ctx.db.transaction((trx) => emitEvent(trx, { teamId: owner.teamId, type: 'site.renamed', data: { site: { id: 1, name: 'committed' } } }));
    const [request] = await receiver.waitFor(endpoint.path, 1);
    expect(JSON.parse(request!.body).data.site.name).toBe('committed');
    // the rolled-back event is not in the outbox, so no dispatch can ever send it; the endpoint has one delivery
    expect(
      await stack.ctx
        .db('webhook_events')
        .where({ team_id: owner.teamId, type: 'site.renamed' })
        .whereRaw("body::jsonb #>> '{data,site,name}' = 'rolled back'"),
    ).toEqual([]);
    expect((await waitForDelivery(endpoint.id, (row) => row.status === 'succeeded')).event_id).toBe(headersOf(request!)['webhook-id']);
    expect(await deliveriesOf(endpoint.id)).toHaveLength(1);
    expect(receiver.received.filter((received) => received.path === endpoint.path)).toHaveLength(1);
  });

  it("reports an operation's end: the generic event and the kind's own, with the failing step", async () => {
    const endpoint = await addEndpoint({ event_types: ['operation.failed', 'backup.*'] });
    const operationId = await stack.ctx.db.transaction(async (trx) => {
      const [operation] = await insertOperations(trx, backupCreate, [
        {
          input: { site_id: 1, environment_id: 999_999, backup_id: randomUUID() },
          start: { teamId: owner.teamId, target: { type: 'environment', id: 999_999 } },
        },
      ]);
      if (!operation) throw new Error('no operation written');
      await finishOperation(trx, operation.id, 'failed', { error: { step: 'dump', message: 'mariadb-dump: the database is gone' } });
      return operation.id;
    });
    const requests = await receiver.waitFor(endpoint.path, 2);
    const bodies = requests.map((request) => JSON.parse(request.body)).sort((a, b) => a.type.localeCompare(b.type));
    expect(bodies.map((body) => body.type)).toEqual(['backup.create_failed', 'operation.failed']);
    for (const body of bodies) {
      expect(body.data.operation).toMatchObject({
        id: operationId,
        kind: 'backup.create',
        status: 'failed',
        target: { type: 'environment', id: '999999' },
        error: { step: 'dump', message: 'mariadb-dump: the database is gone' },
      });
    }
  });

  it('tries a failing receiver again on the schedule, with the same webhook-id, until it answers 2xx', async () => {
    const endpoint = await addEndpoint({ event_types: ['member.role_changed'] });
    receiver.answerNext(endpoint.path, { status: 500, body: 'database down' }, { status: 302, body: 'elsewhere' });
    await changeSomeRole();
    const requests = await receiver.waitFor(endpoint.path, 3);
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
    expect(new Set(requests.map((request) => request.body)).size).toBe(1);
    // waited at least the schedule's wait less its jitter between attempts
    expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(RETRY_WAITS_MS[0]! * 0.8 - 50);
    expect(requests[2]!.at - requests[1]!.at).toBeGreaterThanOrEqual(RETRY_WAITS_MS[1]! * 0.8 - 50);
    for (const request of requests) new Webhook(endpoint.secret).verify(request.body, headersOf(request));

    const delivery = await waitForDelivery(endpoint.id, (row) => row.status === 'succeeded');
    expect(delivery.attempts).toBe(3);
    expect(delivery.attempts_log.map((attempt: any) => attempt.response.status)).toEqual([500, 302, 200]);
    expect(delivery.attempts_log[0].response.body).toBe('database down');
    const endpointNow = await call(stack.client(), 'GET', `/v1/webhooks/${endpoint.id}`, token);
    expect(endpointNow.body.data).toMatchObject({ enabled: true, failing_since: null });
  });

  it('gives up on an attempt that takes longer than the timeout, and fails the delivery when the schedule is used up', async () => {
    const endpoint = await addEndpoint({ event_types: ['member.role_changed'] });
    receiver.answerNext(endpoint.path, { status: 200, delayMs: 10_000 }, { status: 503 }, { status: 503 }, { status: 503 });
    await changeSomeRole();
    const delivery = await waitForDelivery(endpoint.id, (row) => row.status === 'failed', 20_000);
    expect(delivery.attempts).toBe(RETRY_WAITS_MS.length + 1);
    expect(delivery.attempts_log[0]).toMatchObject({ response: null, error: 'timed out after 3000 ms' });
    expect(delivery.attempts_log[0].duration_ms).toBeGreaterThanOrEqual(2950);
    expect(delivery.attempts_log.slice(1).map((attempt: any) => attempt.response.status)).toEqual([503, 503, 503]);
    expect(delivery).toMatchObject({ last_status_code: 503, last_error: 'answered 503', next_attempt_at: null });
    const endpointNow = (await call(stack.client(), 'GET', `/v1/webhooks/${endpoint.id}`, token)).body.data;
    expect(endpointNow.enabled).toBe(true);
    expect(endpointNow.failing_since).not.toBeNull();

    // sent again by hand once the receiver works: a new delivery of the same event
    const again = await call(stack.client(), 'POST', `/v1/webhooks/${endpoint.id}/deliveries/${delivery.id}/redeliver`, token);
    expect(again.status, JSON.stringify(again.body)).toBe(202);
    expect(again.body.data).toMatchObject({ event_id: delivery.event_id, status: 'pending', manual: true });
    const redelivered = await waitForDelivery(endpoint.id, (row) => row.id === again.body.data.id && row.status === 'succeeded');
    expect(redelivered.attempts_log[0].request.body).toBe(delivery.attempts_log[0].request.body);
    expect((await call(stack.client(), 'GET', `/v1/webhooks/${endpoint.id}`, token)).body.data.failing_since).toBeNull();
  });

  it('records an answer with bytes Postgres cannot store (NUL) instead of sending it again forever', async () => {
    const endpoint = await addEndpoint({ event_types: ['member.role_changed'] });
    receiver.answerNext(endpoint.path, { status: 200, body: 'o\u0000k' });
    await changeSomeRole();
    const delivery = await waitForDelivery(endpoint.id, (row) => row.status === 'succeeded');
    expect(delivery.attempts_log).toHaveLength(1);
    expect(delivery.attempts_log[0].response).toMatchObject({ status: 200, body: 'o\uFFFDk' });
  });

  it('disables an endpoint that answers 410 Gone, fails what waited, sends nothing more, and tells the owner', async () => {
    const endpoint = await addEndpoint({ event_types: ['member.role_changed'] });
    // gets every role change too: once it has one, that event has been fanned out to every endpoint
    const marker = await addEndpoint({ event_types: ['member.role_changed'] });
    receiver.answerNext(endpoint.path, { status: 410, body: 'gone for good' });
    await changeSomeRole();
    await receiver.waitFor(endpoint.path, 1);
    const mail = await disabledMail(endpoint.path);
    expect(mail.subject).toBe(`A webhook endpoint of ${owner.teamName} was disabled`);
    expect(mail.text).toContain('410 Gone');
    const endpointNow = (await call(stack.client(), 'GET', `/v1/webhooks/${endpoint.id}`, token)).body.data;
    expect(endpointNow).toMatchObject({ enabled: false, disabled_reason: 'gone' });
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: 'failed', last_status_code: 410 });

    await changeSomeRole();
    await receiver.waitFor(marker.path, 2);
    expect(await deliveriesOf(endpoint.id)).toHaveLength(1);
    expect(receiver.received.filter((received) => received.path === endpoint.path)).toHaveLength(1);
    expect((await call(stack.client(), 'POST', `/v1/webhooks/${endpoint.id}/test`, token)).status).toBe(409);

    // enabled again, it receives again
    expect((await call(stack.client(), 'PATCH', `/v1/webhooks/${endpoint.id}`, token, { enabled: true })).body.data).toMatchObject({
      enabled: true,
      disabled_reason: null,
    });
    await changeSomeRole();
    await receiver.waitFor(endpoint.path, 2);
  });

  it('disables an endpoint that has failed every attempt for the whole period (5 days), with a mail', async () => {
    const endpoint = await addEndpoint({ event_types: ['member.role_changed'] });
    // its failures began six days ago (the time is data: written, not waited for)
    await stack.ctx
      .db('webhook_endpoints')
      .where({ id: endpoint.id })
      .update({ failing_since: new Date(Date.now() - 6 * 86_400_000) });
    receiver.answerNext(endpoint.path, { status: 500 });
    await changeSomeRole();
    expect((await disabledMail(endpoint.path)).text).toContain('failed for days');
    const endpointNow = (await call(stack.client(), 'GET', `/v1/webhooks/${endpoint.id}`, token)).body.data;
    expect(endpointNow).toMatchObject({ enabled: false, disabled_reason: 'failing' });
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('signs with both secrets while a rotated-out secret overlaps, then with the new one only', async () => {
    const endpoint = await addEndpoint({ event_types: ['webhook.test'] });
    const rotated = await call(stack.client(), 'POST', `/v1/webhooks/${endpoint.id}/rotate-secret`, token, { expire_previous_in_seconds: 3600 });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const newSecret = rotated.body.data.secret as string;
    expect(newSecret).not.toBe(endpoint.secret);
    expect(new Date(rotated.body.data.previous_secret_expires_at).getTime()).toBeGreaterThan(Date.now() + 3500_000);
    expect((await call(stack.client(), 'GET', `/v1/webhooks/${endpoint.id}/secret`, token)).body.data.secret).toBe(newSecret);

    expect((await call(stack.client(), 'POST', `/v1/webhooks/${endpoint.id}/test`, token)).status).toBe(202);
    const [overlapping] = await receiver.waitFor(endpoint.path, 1);
    expect(String(overlapping!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(new Webhook(endpoint.secret).verify(overlapping!.body, headersOf(overlapping!))).toMatchObject({
      type: 'webhook.test',
      data: { endpoint_id: endpoint.id },
    });
    expect(new Webhook(newSecret).verify(overlapping!.body, headersOf(overlapping!))).toMatchObject({ type: 'webhook.test' });

    const again = await call(stack.client(), 'POST', `/v1/webhooks/${endpoint.id}/rotate-secret`, token, { expire_previous_in_seconds: 0 });
    expect(again.body.data.previous_secret_expires_at).toBeNull();
    await call(stack.client(), 'POST', `/v1/webhooks/${endpoint.id}/test`, token);
    const [, alone] = await receiver.waitFor(endpoint.path, 2);
    expect(String(alone!.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(() => new Webhook(newSecret).verify(alone!.body, headersOf(alone!))).toThrow();
    new Webhook(again.body.data.secret).verify(alone!.body, headersOf(alone!));
  });

  it('tells the teams with environments on a node when it goes silent and when it reports again', async () => {
    const endpoint = await addEndpoint({ event_types: ['node.*'] });
    const db = stack.ctx.db;
    const [node] = await db('nodes')
      .insert({
        name: `node-${Date.now()}`,
        region: 'test',
        public_address: '127.0.0.1',
        ssh_host: '127.0.0.1',
        ssh_user: 'root',
        status: 'online',
        last_heartbeat_at: new Date(),
      })
      .returning('id');
    const environmentIds: number[] = [];
    for (const kind of ['production', 'staging']) {
      const slug = `n${Date.now()}${kind[0]}`;
      const [site] = await db('sites').insert({ team_id: owner.teamId, name: slug, slug, region: 'test', status: 'active' }).returning('id');
      const [environment] = await db('environments')
        .insert({
          site_id: site.id,
          team_id: owner.teamId,
          kind,
          node_id: node.id,
          php_version: '8.2',
          domain: `${slug}.test`,
          status: 'active',
          db_name: `wp_${slug}`,
          db_user: `wp_${slug}`,
          db_password_sealed: 'x',
          disk_quota_bytes: 1,
        })
        .returning('id');
      environmentIds.push(environment.id);
    }
    // three heartbeats missed
    await db('nodes')
      .where({ id: node.id })
      .update({ last_heartbeat_at: new Date(Date.now() - 60_000) });
    const [offline] = await receiver.waitFor(endpoint.path, 1);
    expect(JSON.parse(offline!.body)).toMatchObject({
      type: 'node.offline',
      data: { node: { id: node.id, status: 'offline' }, environment_ids: environmentIds },
    });
    // reported once, not on every dispatch: an event written after it is delivered, so a later dispatch
    // (which looks at the nodes before fanning out) has run, and the outbox still holds one node.offline
    const marker = await addEndpoint({ event_types: ['site.renamed'] });
    await emitEvent(db, { teamId: owner.teamId, type: 'site.renamed', data: { site: { id: 0, name: 'marker' } } });
    await receiver.waitFor(marker.path, 1);
    const nodeEvents = () =>
      db('webhook_events')
        .where({ team_id: owner.teamId })
        .whereRaw("body::jsonb #>> '{data,node,id}' = ?", [String(node.id)])
        .select('type');
    expect(await nodeEvents()).toEqual([{ type: 'node.offline' }]);
    expect(receiver.received.filter((request) => request.path === endpoint.path)).toHaveLength(1);

    await db('nodes').where({ id: node.id }).update({ last_heartbeat_at: new Date() });
    const [, online] = await receiver.waitFor(endpoint.path, 2);
    expect(JSON.parse(online!.body)).toMatchObject({ type: 'node.online', data: { node: { id: node.id, status: 'online' } } });
    await db('environments').whereIn('id', environmentIds).delete();
    await db('nodes').where({ id: node.id }).delete();
  });

  it("sends a team's events to its own endpoints only, each filtered by its event types", async () => {
    const everything = await addEndpoint();
    const domainsOnly = await addEndpoint({ event_types: ['domain.*'] });
    const stranger = await createOwner(stack.ctx.db);
    const strangerToken = await accessTokenOf(stack.client(), stranger);
    const strangers = await addEndpoint({}, strangerToken);

    await changeSomeRole();
    const [received] = await receiver.waitFor(everything.path, 1);
    expect(JSON.parse(received!.body).type).toBe('member.role_changed');
    // an event is fanned out to every matching endpoint in one statement: with the delivery to `everything`
    // made, none was made for the others, and none will be
    expect(await stack.ctx.db('webhook_deliveries').whereIn('endpoint_id', [domainsOnly.id, strangers.id])).toEqual([]);
    expect(receiver.received.filter((request) => request.path === domainsOnly.path || request.path === strangers.path)).toEqual([]);

    // the other team sees nothing of this team's endpoints
    expect((await call(stack.client(), 'GET', `/v1/webhooks/${everything.id}`, strangerToken)).status).toBe(404);
    expect((await call(stack.client(), 'GET', `/v1/webhooks/${everything.id}/deliveries`, strangerToken)).status).toBe(404);
    const ownDelivery = (await deliveriesOf(everything.id))[0];
    expect((await call(stack.client(), 'GET', `/v1/webhooks/${strangers.id}/deliveries/${ownDelivery.id}`, strangerToken)).status).toBe(404);
    expect((await call(stack.client(), 'POST', `/v1/webhooks/${everything.id}/deliveries/${ownDelivery.id}/redeliver`, strangerToken)).status).toBe(404);
    expect((await call(stack.client(), 'GET', '/v1/webhooks', strangerToken)).body.data.map((row: any) => row.id)).toEqual([strangers.id]);
  });
});
