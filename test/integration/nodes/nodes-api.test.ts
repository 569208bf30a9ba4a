import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFLINE_AFTER_SECONDS } from '../../../shared/agent-protocol/protocol.ts';
import { unseal } from '../../../shared/crypto/sealed.ts';
import { Node, Operation } from '../../../shared/db/models.ts';
import { bearer, type Reply } from '../../helpers/client.ts';
import { accessTokenOf, createOwner, unique, type TestUser } from '../../helpers/factories.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';

/**
 * /v1/nodes: operators only, CRUD, validation, the status moves operators make and the statuses
 * nodes show. The workers are off: enrollment stays queued here (test/integration/nodes/enroll.test.ts
 * runs it against a real sshd).
 */
let stack: Stack;
let operator: TestUser;
let operatorToken: string;
let customer: TestUser;
let customerToken: string;

const pkcs8Ed25519 = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const rsaKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
const password = `pw-${unique('secret')}`;

async function makeOperator(user: TestUser): Promise<void> {
  await stack.ctx.db('users').where({ id: user.userId }).update({ platform_role: 'operator' });
}

function nodeBody(overrides: Record<string, unknown> = {}) {
  return {
    name: unique('node'),
    region: 'eu-central',
    public_address: '203.0.113.10',
    ssh: { host: '127.0.0.1', port: 2222, user: 'root', private_key: rsaKey },
    ...overrides,
  };
}

const createNode = (body: unknown, token = operatorToken) => stack.client().post('/v1/nodes', body, bearer(token));
const getNode = (id: string, token = operatorToken) => stack.client().get(`/v1/nodes/${id}`, bearer(token));
const patchNode = (id: string, json: unknown, token = operatorToken) => stack.client().request('PATCH', `/v1/nodes/${id}`, { json, ...bearer(token) });
const deleteNode = (id: string, token = operatorToken) => stack.client().request('DELETE', `/v1/nodes/${id}`, bearer(token));

/** A node as an enrolled agent leaves it, written straight to the database. */
async function enrolledNode(overrides: Partial<Node> = {}): Promise<Node> {
  return Node.query(stack.ctx.db).insertAndFetch({
    name: unique('node'),
    region: 'eu-west',
    public_address: '198.51.100.7',
    ssh_host: '198.51.100.7',
    ssh_port: 22,
    ssh_user: 'root',
    status: 'online',
    public_key: { kty: 'OKP', crv: 'Ed25519', x: 'A'.repeat(43) },
    agent_version: '0.1.0',
    protocol_version: 1,
    enrolled_at: new Date(),
    last_heartbeat_at: new Date(),
    ...overrides,
  });
}

function expectFields(reply: Reply, ...fields: string[]): void {
  expect(reply.status).toBe(422);
  expect(reply.body.error.code).toBe('VALIDATION_ERROR');
  expect(reply.body.error.details.fields.map((problem: { field: string }) => problem.field)).toEqual(expect.arrayContaining(fields));
}

beforeAll(async () => {
  stack = await startStack({ workers: false });
  operator = await createOwner(stack.ctx.db);
  await makeOperator(operator);
  operatorToken = await accessTokenOf(stack.client(), operator);
  customer = await createOwner(stack.ctx.db);
  customerToken = await accessTokenOf(stack.client(), customer);
});
afterAll(async () => {
  await stack?.stop();
});

describe('who may use /v1/nodes', () => {
  it('answers a customer (even an owner holding *) as if the routes did not exist, and records nothing', async () => {
    const node = await enrolledNode();
    const unknownPath = await stack.client().get('/v1/no-such-thing', bearer(customerToken));
    for (const reply of [
      await stack.client().get('/v1/nodes', bearer(customerToken)),
      await getNode(node.id, customerToken),
      await createNode(nodeBody(), customerToken),
      await patchNode(node.id, { status: 'disabled' }, customerToken),
      await deleteNode(node.id, customerToken),
      await stack.client().post(`/v1/nodes/${node.id}/enroll`, {}, bearer(customerToken)),
    ]) {
      expect(reply.status).toBe(404);
      expect(reply.body.error.code).toBe(unknownPath.body.error.code);
      expect(reply.body.error.message).toMatch(/^No endpoint (GET|POST|PATCH|DELETE) \/v1\/nodes/);
    }
    expect((await Node.query(stack.ctx.db).findById(node.id))?.status).toBe('online');
    const entries = await stack.ctx.db('activity').where({ team_id: customer.teamId }).where('action', 'like', 'node.%').select('id');
    expect(entries).toEqual([]);
  });

  it("needs a session: an operator's API token gets 403, whatever its grants", async () => {
    const created = await stack.client().post('/v1/api-tokens', { name: 'fleet', permissions: ['*'] }, bearer(operatorToken));
    expect(created.status).toBe(201);
    const reply = await stack.client().get('/v1/nodes', bearer(created.body.data.token));
    expect(reply.status).toBe(403);
    expect(reply.body.error.code).toBe('AUTHORIZATION_ERROR');
    expect(reply.body.error.message).toMatch(/session/);
  });

  it('asks for authentication first', async () => {
    const reply = await stack.client().get('/v1/nodes');
    expect(reply.status).toBe(401);
  });

  it('shows operator: true on /v1/me, and applies a demotion at the next request', async () => {
    const user = await createOwner(stack.ctx.db);
    await makeOperator(user);
    const token = await accessTokenOf(stack.client(), user);
    expect((await stack.client().get('/v1/me', bearer(token))).body.data.operator).toBe(true);
    expect((await stack.client().get('/v1/nodes', bearer(token))).status).toBe(200);
    await stack.ctx.db('users').where({ id: user.userId }).update({ platform_role: null });
    expect((await stack.client().get('/v1/me', bearer(token))).body.data.operator).toBe(false);
    expect((await stack.client().get('/v1/nodes', bearer(token))).status).toBe(404);
  });
});

describe('POST /v1/nodes', () => {
  it('answers 202 with a queued node.enroll platform operation and seals the credentials out of sight', async () => {
    const body = nodeBody({ capacity: { max_sites: 40 } });
    const reply = await createNode(body);
    expect(reply.status).toBe(202);
    const operation = reply.body.data;
    expect(reply.headers.get('location')).toBe(`/v1/operations/${operation.id}`);
    expect(operation).toMatchObject({ kind: 'node.enroll', status: 'queued', target: { type: 'node' } });
    expect(operation.steps.map((step: { name: string }) => step.name)).toEqual([
      'connect',
      'check_host',
      'upload_agent',
      'install_agent',
      'await_registration',
      'prepare_runtime',
    ]);
    expect(operation.input).toEqual({
      node_id: operation.target.id,
      name: body.name,
      ssh: { host: '127.0.0.1', port: 2222, user: 'root', auth: 'private_key' },
    });

    const row = (await Operation.query(stack.ctx.db).findById(operation.id))!;
    expect(row.team_id).toBeNull();
    // An operator reads the platform operation; a customer does not see it.
    const read = await stack.client().get(`/v1/operations/${operation.id}`, bearer(operatorToken));
    expect(read.status).toBe(200);
    expect((await stack.client().get(`/v1/operations/${operation.id}`, bearer(customerToken))).status).toBe(404);

    const node = await getNode(operation.target.id);
    expect(node.status).toBe(200);
    expect(node.body.data).toMatchObject({
      name: body.name,
      region: 'eu-central',
      public_address: '203.0.113.10',
      status: 'enrolling',
      ssh: { host: '127.0.0.1', port: 2222, user: 'root', host_key_sha256: null, credentials_stored: true },
      capacity: { max_sites: 40 },
      hosts: { sites: 0 },
      enrollment: { operation_id: operation.id, status: 'queued', error: null },
      last_heartbeat_at: null,
    });
    const keyLine = rsaKey.split('\n')[1]!;
    for (const answer of [reply, read, node]) expect(JSON.stringify(answer.body)).not.toContain(keyLine);
    const stored = (await Node.query(stack.ctx.db).findById(operation.target.id))!;
    expect(stored.ssh_credentials_sealed).not.toContain(keyLine);
    expect(JSON.parse(unseal(stack.ctx.config.secrets.secretKey, stored.ssh_credentials_sealed!))).toEqual({ private_key: rsaKey });
  });

  it('takes a password instead of a key, never showing it', async () => {
    const reply = await createNode(nodeBody({ ssh: { host: 'node-7.example.com', user: 'deploy', password } }));
    expect(reply.status).toBe(202);
    expect(reply.body.data.input.ssh).toEqual({ host: 'node-7.example.com', port: 22, user: 'deploy', auth: 'password' });
    expect(JSON.stringify(reply.body)).not.toContain(password);
    const node = await getNode(reply.body.data.target.id);
    expect(JSON.stringify(node.body)).not.toContain(password);
    const operation = (await Operation.query(stack.ctx.db).findById(reply.body.data.id))!;
    expect(JSON.stringify(operation)).not.toContain(password);
  });

  it('names every field that is wrong', async () => {
    expectFields(await createNode({}), 'name', 'region', 'public_address', 'ssh');
    expectFields(await createNode(nodeBody({ name: 'Not A Name!', region: 'EU', public_address: 'not an address' })), 'name', 'region', 'public_address');
    expectFields(await createNode(nodeBody({ ssh: { host: '127.0.0.1', user: 'root' } })), 'ssh.private_key');
    expectFields(await createNode(nodeBody({ ssh: { host: '127.0.0.1', user: 'root', private_key: rsaKey, password } })), 'ssh.private_key');
    expectFields(await createNode(nodeBody({ ssh: { host: '127.0.0.1', port: 70000, user: 'Root User', password } })), 'ssh.port', 'ssh.user');
    expectFields(await createNode(nodeBody({ ssh: { host: '127.0.0.1', user: 'root', private_key: 'not a key' } })), 'ssh.private_key');
    expectFields(await createNode(nodeBody({ capacity: { max_sites: -1 } })), 'capacity.max_sites');
    // A key in a form ssh2 cannot use (PKCS#8 Ed25519: ssh-keygen's OpenSSH form works) is refused up front.
    expectFields(await createNode(nodeBody({ ssh: { host: '127.0.0.1', user: 'root', private_key: pkcs8Ed25519 } })), 'ssh.private_key');
  });

  it('refuses a name that is taken', async () => {
    const body = nodeBody();
    expect((await createNode(body)).status).toBe(202);
    const again = await createNode({ ...body, region: 'us-east' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');
  });
});

describe('POST /v1/nodes/{id}/enroll', () => {
  const failLatest = (nodeId: string) =>
    stack.ctx
      .db('operations')
      .where({ target_type: 'node', target_id: nodeId, status: 'queued' })
      .update({ status: 'failed', finished_at: new Date(), error: JSON.stringify({ step: 'connect', message: 'cannot reach' }) });
  const retry = (id: string, body: unknown = {}) => stack.client().post(`/v1/nodes/${id}/enroll`, body, bearer(operatorToken));

  it('starts a new enrollment once the last one failed, with the stored credentials or new SSH details', async () => {
    const created = await createNode(nodeBody());
    const id = created.body.data.target.id;
    const underWay = await retry(id);
    expect(underWay.status).toBe(409);
    expect(underWay.body.error.message).toMatch(/under way/);

    await failLatest(id);
    await stack.ctx.db('nodes').where({ id }).update({ ssh_host_key_sha256: 'SHA256:pinned' });
    const again = await retry(id);
    expect(again.status).toBe(202);
    expect(again.body.data).toMatchObject({
      kind: 'node.enroll',
      status: 'queued',
      input: { ssh: { host: '127.0.0.1', port: 2222, user: 'root', auth: 'private_key' } },
    });
    expect((await getNode(id)).body.data).toMatchObject({
      status: 'enrolling',
      enrollment: { operation_id: again.body.data.id, status: 'queued' },
      ssh: { host_key_sha256: 'SHA256:pinned' },
    });

    // New SSH details: another host forgets the pinned key; the password never shows.
    await failLatest(id);
    const moved = await retry(id, { ssh: { host: '192.0.2.44', user: 'deploy', password } });
    expect(moved.status).toBe(202);
    expect(moved.body.data.input.ssh).toEqual({ host: '192.0.2.44', port: 22, user: 'deploy', auth: 'password' });
    expect(JSON.stringify(moved.body)).not.toContain(password);
    expect((await getNode(id)).body.data.ssh).toEqual({ host: '192.0.2.44', port: 22, user: 'deploy', host_key_sha256: null, credentials_stored: true });
    expectFields(await retry(id, { ssh: { host: '192.0.2.44', user: 'deploy' } }), 'ssh.private_key');
  });

  it('refuses an enrolled or disabled node, and one without stored credentials', async () => {
    const online = await enrolledNode();
    expect((await retry(online.id)).status).toBe(409);
    const created = await createNode(nodeBody());
    const id = created.body.data.target.id;
    await failLatest(id);
    await stack.ctx.db('nodes').where({ id }).update({ ssh_credentials_sealed: null });
    const bare = await retry(id);
    expect(bare.status).toBe(409);
    expect(bare.body.error.message).toMatch(/give them in `ssh`/);
    await patchNode(id, { status: 'disabled' });
    expect((await retry(id, { ssh: { host: '127.0.0.1', user: 'root', password } })).status).toBe(409);
    expect((await retry('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await stack.client().post(`/v1/nodes/${id}/enroll`, {}, bearer(customerToken))).status).toBe(404);
  });
});

describe('GET /v1/nodes', () => {
  it('lists by name with filters on region and on the status nodes show (offline derived from the heartbeat)', async () => {
    const region = unique('r').slice(0, 20);
    const fresh = await enrolledNode({ region, name: `a-${unique('n')}` });
    const silent = await enrolledNode({ region, name: `b-${unique('n')}`, last_heartbeat_at: new Date(Date.now() - (OFFLINE_AFTER_SECONDS + 30) * 1000) });
    const draining = await enrolledNode({ region, name: `c-${unique('n')}`, status: 'draining' });

    const all = await stack.client().get(`/v1/nodes?region=${region}`, bearer(operatorToken));
    expect(all.status).toBe(200);
    expect(all.body.data.map((node: { id: string; status: string }) => [node.id, node.status])).toEqual([
      [fresh.id, 'online'],
      [silent.id, 'offline'],
      [draining.id, 'draining'],
    ]);
    expect(all.body.pagination).toEqual({ page: 1, page_size: 20, total: 3, total_pages: 1 });

    const offline = await stack.client().get(`/v1/nodes?region=${region}&status=offline`, bearer(operatorToken));
    expect(offline.body.data.map((node: { id: string }) => node.id)).toEqual([silent.id]);
    const paged = await stack.client().get(`/v1/nodes?region=${region}&page=2&page_size=2`, bearer(operatorToken));
    expect(paged.body.data.map((node: { id: string }) => node.id)).toEqual([draining.id]);

    expectFields(await stack.client().get('/v1/nodes?status=sleeping', bearer(operatorToken)), 'status');
  });

  it('shows a node whose enrollment failed as failed, with the error', async () => {
    const reply = await createNode(nodeBody());
    const operationId = reply.body.data.id;
    await stack.ctx
      .db('operations')
      .where({ id: operationId })
      .update({
        status: 'failed',
        finished_at: new Date(),
        error: JSON.stringify({ step: 'connect', message: 'SSH authentication failed for root@127.0.0.1:2222' }),
      });
    const node = await getNode(reply.body.data.target.id);
    expect(node.body.data.status).toBe('failed');
    expect(node.body.data.enrollment).toEqual({
      operation_id: operationId,
      status: 'failed',
      error: { step: 'connect', message: 'SSH authentication failed for root@127.0.0.1:2222' },
    });
    const failed = await stack.client().get('/v1/nodes?status=failed&page_size=100', bearer(operatorToken));
    expect(failed.body.data.map((item: { id: string }) => item.id)).toContain(reply.body.data.target.id);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    expect((await getNode('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await getNode('not-a-uuid')).status).toBe(404);
  });
});

describe('PATCH /v1/nodes/{id}', () => {
  it('edits name, region, address and capacity; a taken name is 409', async () => {
    const node = await enrolledNode({ capacity: { max_sites: 10, disk_bytes: 1000 } });
    const name = unique('renamed');
    const reply = await patchNode(node.id, { name, region: 'ap-south', public_address: 'node.example.net', capacity: { max_sites: 5 } });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ name, region: 'ap-south', public_address: 'node.example.net', capacity: { max_sites: 5 }, status: 'online' });
    const other = await enrolledNode();
    const taken = await patchNode(other.id, { name });
    expect(taken.status).toBe(409);
    expectFields(await patchNode(node.id, { status: 'enrolling' }), 'status');
    // HTTPS on its edge: a port, then none again; never a port out of range
    expect((await patchNode(node.id, { edge_https_port: 443 })).body.data.edge_https_port).toBe(443);
    expect((await patchNode(node.id, { edge_https_port: null })).body.data.edge_https_port).toBeNull();
    expectFields(await patchNode(node.id, { edge_https_port: 70_000 }), 'edge_https_port');
    expectFields(await patchNode(node.id, { edge_https_port: (await stack.ctx.db('nodes').where({ id: node.id }).first()).edge_http_port }), 'edge_https_port');
  });

  it('drains and resumes an online node; draining needs an online node', async () => {
    const node = await enrolledNode();
    expect((await patchNode(node.id, { status: 'draining' })).body.data.status).toBe('draining');
    expect((await patchNode(node.id, { status: 'online' })).body.data.status).toBe('online');
    const enrolling = await createNode(nodeBody());
    const refused = await patchNode(enrolling.body.data.target.id, { status: 'draining' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('CONFLICT');
    expect((await patchNode(enrolling.body.data.target.id, { status: 'online' })).status).toBe(409);
  });

  it('disables any node at once and enables an enrolled one again', async () => {
    const node = await enrolledNode({ status: 'draining' });
    const disabled = await patchNode(node.id, { status: 'disabled' });
    expect(disabled.status).toBe(200);
    expect(disabled.body.data.status).toBe('disabled');
    expect(disabled.body.data.disabled_at).not.toBeNull();
    const enabled = await patchNode(node.id, { status: 'online' });
    expect(enabled.body.data).toMatchObject({ status: 'online', disabled_at: null });

    // A node disabled while enrolling cannot be enabled (it never had an agent) and loses its enrollment token.
    const enrolling = await createNode(nodeBody());
    const id = enrolling.body.data.target.id;
    await stack.ctx
      .db('nodes')
      .where({ id })
      .update({ enrollment_token_hash: 'x'.repeat(64), enrollment_expires_at: new Date(Date.now() + 60_000) });
    expect((await patchNode(id, { status: 'disabled' })).body.data.status).toBe('disabled');
    expect((await Node.query(stack.ctx.db).findById(id))!.enrollment_token_hash).toBeNull();
    expect((await patchNode(id, { status: 'online' })).status).toBe(409);
  });
});

describe('DELETE /v1/nodes/{id}', () => {
  it('removes an empty node and answers it as it was', async () => {
    const node = await enrolledNode();
    const reply = await deleteNode(node.id);
    expect(reply.status).toBe(200);
    expect(reply.body.data.id).toBe(node.id);
    expect(await Node.query(stack.ctx.db).findById(node.id)).toBeUndefined();
    expect((await deleteNode(node.id)).status).toBe(404);
  });

  it('refuses a node with unfinished work: a queued enrollment, a pending agent command', async () => {
    const enrolling = await createNode(nodeBody());
    const busy = await deleteNode(enrolling.body.data.target.id);
    expect(busy.status).toBe(409);
    expect(busy.body.error.message).toMatch(/1 unfinished operation/);

    const node = await enrolledNode();
    await stack.ctx
      .db('agent_commands')
      .insert({ id: `${unique('op')}:step`, node_id: node.id, kind: 'runtime.info', payload: {}, deadline_at: new Date(Date.now() + 60_000) });
    const withCommand = await deleteNode(node.id);
    expect(withCommand.status).toBe(409);
    expect(withCommand.body.error.message).toMatch(/1 unfinished agent command/);
    await stack.ctx.db('agent_commands').where({ node_id: node.id }).update({ status: 'succeeded', finished_at: new Date() });
    expect((await deleteNode(node.id)).status).toBe(200);
  });
});
