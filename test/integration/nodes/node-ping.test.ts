import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentCommandRow, Node, Operation } from '../../../shared/db/models.ts';
import { startAgentNode, type AgentNode } from '../../helpers/agent-node.ts';
import { signedInOperator, signedInOwner } from '../../helpers/billing.ts';
import { bearer } from '../../helpers/client.ts';
import { unique } from '../../helpers/factories.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { until } from '../../helpers/until.ts';

/**
 * POST /v1/nodes/{id}/ping: a `node.ping` operation through the whole path (route, queue, worker,
 * the long-poll of a real agent process, its journal, the result) and the refusals around it.
 */
let stack: Stack;
let node: AgentNode;
let operatorToken: string;

beforeAll(async () => {
  stack = await startStack();
  node = await startAgentNode({ db: stack.ctx.db, apiUrl: stack.api.url });
  operatorToken = (await signedInOperator(stack)).token;
}, 90_000);
afterAll(async () => {
  await node?.stop();
  await stack?.stop();
});

const ping = (nodeId: string, token = operatorToken) => stack.client().post(`/v1/nodes/${nodeId}/ping`, {}, bearer(token));
const finished = (id: string) =>
  until(async () => {
    const operation = await Operation.query(stack.ctx.db).findById(id);
    return operation && ['succeeded', 'failed', 'cancelled'].includes(operation.status) ? operation : null;
  }, `operation ${id} to finish`);

describe('POST /v1/nodes/{id}/ping', () => {
  it('answers 202 with a node.ping operation that succeeds with what the agent answered, its command journaled on the node', async () => {
    const reply = await ping(node.nodeId);
    expect(reply.status, JSON.stringify(reply.body)).toBe(202);
    const operation = reply.body.data;
    expect(reply.headers.get('location')).toBe(`/v1/operations/${operation.id}`);
    expect(operation).toMatchObject({ kind: 'node.ping', target: { type: 'node', id: node.nodeId }, steps: [{ name: 'ping' }] });

    const ended = await finished(operation.id);
    expect(ended.status, JSON.stringify(ended.error)).toBe('succeeded');
    const nodeName = (await Node.query(stack.ctx.db).findById(node.nodeId))!.name;
    expect(ended.result).toEqual({ node: nodeName, agent_version: expect.any(String), agent_time: expect.any(String), round_trip_ms: expect.any(Number) });
    const result = ended.result as { agent_time: string; round_trip_ms: number };
    expect(Math.abs(Date.parse(result.agent_time) - Date.now())).toBeLessThan(5 * 60_000);
    expect(result.round_trip_ms).toBeGreaterThan(0);

    // the command went to the agent and came back, and the agent journaled it like any other
    const command = await AgentCommandRow.query(stack.ctx.db).findById(`${operation.id}:ping`);
    expect(command).toMatchObject({ node_id: node.nodeId, kind: 'agent.ping', status: 'succeeded', deliveries: 1 });
    await node.agent.waitForLog((line) => line.msg === 'command succeeded' && line.command === `${operation.id}:ping` && line.kind === 'agent.ping');
    const journal = fs.readdirSync(path.join(node.dataDir, 'journal')).map((name) => fs.readFileSync(path.join(node.dataDir, 'journal', name), 'utf8'));
    expect(journal.map((text) => JSON.parse(text) as { id: string }).map((entry) => entry.id)).toContain(`${operation.id}:ping`);

    // readable by operators like every platform operation
    const read = await stack.client().get(`/v1/operations/${operation.id}`, bearer(operatorToken));
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ status: 'succeeded', steps: [{ name: 'ping', status: 'succeeded' }] });
  }, 60_000);

  it('runs many pings of one node side by side: none waits for another, every one succeeds', async () => {
    const replies = await Promise.all(Array.from({ length: 20 }, () => ping(node.nodeId)));
    expect(replies.map((reply) => reply.status)).toEqual(replies.map(() => 202));
    const ended = await Promise.all(replies.map((reply) => finished(reply.body.data.id)));
    expect(ended.map((operation) => operation.status)).toEqual(ended.map(() => 'succeeded'));
    expect(ended.every((operation) => operation.serial_keys.length === 0)).toBe(true);
  }, 60_000);

  it('refuses a node that has not enrolled or is disabled (409), an unknown one and a customer (404)', async () => {
    const [enrolling] = await stack.ctx
      .db('nodes')
      .insert({ name: unique('node'), region: 'test-1', public_address: '127.0.0.1', ssh_host: '127.0.0.1', ssh_user: 'root' })
      .returning('id');
    expect((await ping(enrolling.id as string)).status).toBe(409);
    const [disabled] = await stack.ctx
      .db('nodes')
      .insert({ name: unique('node'), region: 'test-1', public_address: '127.0.0.1', ssh_host: '127.0.0.1', ssh_user: 'root', status: 'disabled' })
      .returning('id');
    const refused = await ping(disabled.id as string);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('CONFLICT');
    expect((await ping('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const customer = await signedInOwner(stack);
    expect((await ping(node.nodeId, customer.token)).status).toBe(404);
    const before = await Operation.query(stack.ctx.db)
      .where({ kind: 'node.ping', target_id: disabled.id as string })
      .resultSize();
    expect(before).toBe(0);
  });
});
