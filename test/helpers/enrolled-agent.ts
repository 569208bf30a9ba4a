import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { expect } from 'vitest';
import { AGENT_TOKEN_AUDIENCE, PROTOCOL_VERSION } from '../../shared/agent-protocol/protocol.ts';
import { issueEnrollmentToken } from '../../shared/domains/nodes/enrollment.ts';
import type { RequestOptions } from './client.ts';
import { unique } from './factories.ts';
import type { Stack } from './stack.ts';

/** The protocol header every agent request carries. */
export const agentProtocol = { 'berth-agent-protocol': String(PROTOCOL_VERSION) };

/** What an agent reports about its machine when it enrolls. */
export const agentFacts = { hostname: 'node-test', os: 'Debian GNU/Linux 12 (bookworm)', arch: 'x86_64', docker: { version: '4.3.1', api_version: '1.41' } };

/** A node row and an agent identity for it: its key, the address it speaks from (if any), and its signed tokens. */
export type TestAgent = {
  nodeId: string;
  privateKey: KeyObject;
  ip: string | undefined;
  token(options?: { lifetime?: number; kid?: string; key?: KeyObject; audience?: string }): Promise<string>;
};

/** A node row an agent could enroll for (on loopback, region test-1). */
export async function nodeRow(stack: Stack): Promise<string> {
  const [node] = await stack.ctx
    .db('nodes')
    .insert({ name: unique('node'), region: 'test-1', public_address: '127.0.0.1', ssh_host: '127.0.0.1', ssh_user: 'root' })
    .returning('id');
  return node.id as string;
}

/**
 * A node row and an agent enrolled for it through the API, with a key of the test's, like the real
 * agent does; from `ip` (X-Forwarded-For, to a stack that trusts loopback) when told.
 */
export async function enrolledAgent(stack: Stack, options: { ip?: string } = {}): Promise<TestAgent> {
  const nodeId = await nodeRow(stack);
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const reply = await stack.client().post(
    '/v1/agent/enroll',
    {
      enrollment_token: await issueEnrollmentToken(stack.ctx.db, nodeId),
      public_key: publicKey.export({ format: 'jwk' }),
      agent_version: '0.1.0',
      facts: agentFacts,
    },
    { headers: { ...agentProtocol, ...(options.ip ? { 'x-forwarded-for': options.ip } : {}) } },
  );
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expect(reply.body.data.node_id).toBe(nodeId);
  return {
    nodeId,
    privateKey,
    ip: options.ip,
    token: ({ lifetime = 60, kid = nodeId, key = privateKey, audience = AGENT_TOKEN_AUDIENCE } = {}) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'EdDSA', kid })
        .setSubject(kid)
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + lifetime)
        .setJti(unique('jti'))
        .sign(key),
  };
}

/** Request options as the agent sends them: the protocol header, a fresh token, its address (or `ip`), and `options` on top. */
export async function asAgent(agent: TestAgent, options: RequestOptions & { ip?: string } = {}): Promise<RequestOptions> {
  const { ip = agent.ip, ...extra } = options;
  return {
    ...extra,
    headers: { ...agentProtocol, authorization: `Bearer ${await agent.token()}`, ...(ip ? { 'x-forwarded-for': ip } : {}), ...extra.headers },
  };
}
