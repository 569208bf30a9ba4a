import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '../../shared/agent-protocol/protocol.ts';
import { Client, type Reply } from '../helpers/client.ts';
import { createOwner, deviceFingerprint, signIn, trustDevice, type TestUser } from '../helpers/factories.ts';
import {
  hostileInputs,
  needsCredentials,
  operationsOf,
  pathParameters,
  type HostileInput,
  type OpenApiDocument,
  type Operation,
} from '../helpers/hostile-inputs.ts';
import { PANEL_URL, startStack, type Stack } from '../helpers/stack.ts';

/**
 * A schema-driven fuzz of every operation in the served OpenAPI document: bounded (a fixed list of
 * hostile values per parameter and body field, counted), loopback only (the stack listens on
 * 127.0.0.1; workers, webhook dispatch, ACME, DNS and Stripe are off, so nothing leaves the
 * machine), sent anonymously and as a signed-in team owner. No input may get a 5xx or an
 * error-level log line (either is a defect, and anyone could raise it), nor an answer the document
 * does not state (its status and schema, checked by the client).
 */

const REQUEST_TIMEOUT_MS = 10_000;
/** Upper bound on the requests one run sends, so the file stays fast on a 2-core machine. */
const MAX_REQUESTS = 12_000;

let stack: Stack;
let owner: TestUser;
let document: OpenApiDocument;
/** Error-level log lines of request loggers, by request id (the X-Request-Id of the answer). */
const errorLines: Array<{ requestId: unknown; message: unknown }> = [];

beforeAll(async () => {
  stack = await startStack({
    workers: false,
    // the fuzz sends thousands of requests from one IP and one caller; the limits themselves are tested elsewhere
    env: {
      RATE_LIMIT_API: '1000000/1m',
      RATE_LIMIT_API_BURST: '1000000/1s',
      RATE_LIMIT_AGENT: '1000000/1m',
      RATE_LIMIT_AGENT_AUTH_FAILURES: '1000000/1m',
      RATE_LIMIT_LOGIN: '1000000/1m',
      RATE_LIMIT_REGISTER: '1000000/1m',
      RATE_LIMIT_EMAIL: '1000000/1m',
    },
  });
  const child = stack.ctx.logger.child.bind(stack.ctx.logger);
  vi.spyOn(stack.ctx.logger, 'child').mockImplementation((...args: Parameters<typeof child>) => {
    const made = child(...args);
    const requestId = (args[0] as { request_id?: unknown }).request_id;
    for (const level of ['error', 'fatal'] as const) {
      const log = made[level].bind(made);
      made[level] = ((...logged: unknown[]) => {
        errorLines.push({ requestId, message: logged.find((part) => typeof part === 'string') });
        return (log as (...all: unknown[]) => void)(...logged);
      }) as typeof made.error;
    }
    return made;
  });
  owner = await createOwner(stack.ctx.db);
  // loopback only: every request of this file goes to this address
  expect(new URL(stack.api.url).hostname).toBe('127.0.0.1');
  const reply = await fetch(`${stack.api.url}/openapi.json`);
  expect(reply.status).toBe(200);
  document = (await reply.json()) as OpenApiDocument;
});
afterAll(async () => {
  vi.restoreAllMocks();
  await stack?.stop();
});

type Caller = { name: 'anonymous' | 'team owner'; client: Client; signIns: string[] };
type Finding = string;
/** What one caller sent: requests, the operations that answered, and (signed in) any refused for want of a session. */
type Sent = { requests: number; answered: Set<string>; refusedAsAnonymous: string[]; statuses: Map<number, number> };

/** `contract`: every answer is also checked against the document (its status documented, its body its schema). */
async function anonymous(options: { contract?: boolean } = {}): Promise<Caller> {
  return { name: 'anonymous', client: new Client(stack.api.url, PANEL_URL, options), signIns: [] };
}

async function teamOwner(options: { contract?: boolean } = {}): Promise<Caller> {
  const client = new Client(stack.api.url, PANEL_URL, options);
  await signIn(client, owner);
  expect((await client.get('/v1/me')).body.data.user_id).toBe(owner.userId);
  return { name: 'team owner', client, signIns: [] };
}

/** Real ids of the owner's where a parameter names them, so body and query inputs reach the route. */
function plausibleValues(operation: Operation): Record<string, string> {
  const values: Record<string, string> = { env: 'production', user_id: String(owner.userId), team_id: String(owner.teamId), type: 'A' };
  if (operation.path.startsWith('/v1/teams/{id}')) values.id = String(owner.teamId);
  return values;
}

/** An anonymous caller is refused by an operation that needs credentials before it reads its query or fields. */
function inputsOf(operation: Operation, caller: Caller['name']): HostileInput[] {
  return hostileInputs(operation, plausibleValues(operation), { beforeAuthentication: caller === 'anonymous' && needsCredentials(operation) });
}

async function sendHostile(caller: Caller, operation: Operation, input: HostileInput): Promise<Reply | Error> {
  try {
    return await caller.client.request(operation.method.toUpperCase(), input.path, {
      headers: { [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) },
      ...(input.body ? { raw: input.body.raw, contentType: input.body.contentType } : {}),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    return error as Error;
  }
}

/**
 * Sends every input of every operation as `caller`; returns what went wrong, each naming the
 * operation and the input. A request that signs the owner out (logout, ending their own session)
 * is followed by a new sign-in, so every input of the signed-in run is really sent signed in.
 */
async function fuzz(caller: Caller, operations: Operation[], sent: Sent): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const operation of operations) {
    for (const input of inputsOf(operation, caller.name)) {
      sent.requests += 1;
      const where = `${caller.name}: ${operation.method.toUpperCase()} ${operation.path} (${operation.operationId}), ${input.label} [${input.path.slice(0, 120)}]`;
      const reply = await sendHostile(caller, operation, input);
      if (reply instanceof Error) {
        // no answer in time, or (the client checks every answer against the document) one it does not state
        findings.push(`${where}: ${reply.name === 'TimeoutError' ? `no answer within ${REQUEST_TIMEOUT_MS} ms` : reply.message}`);
        continue;
      }
      sent.answered.add(operation.operationId);
      sent.statuses.set(reply.status, (sent.statuses.get(reply.status) ?? 0) + 1);
      if (reply.status === 401 && operation.path.startsWith('/v1/') && !/^\/v1\/(agent|auth)\//.test(operation.path))
        sent.refusedAsAnonymous.push(`${operation.operationId}, ${input.label}`);
      if (reply.status >= 500) findings.push(`${where}: ${reply.status} ${reply.bytes.toString('utf8').slice(0, 200)}`);
      const requestId = reply.headers.get('x-request-id');
      for (const line of errorLines.filter((logged) => logged.requestId === requestId))
        findings.push(`${where}: logged at error level: ${String(line.message)}`);
      if (caller.name === 'team owner' && operation.method !== 'get' && reply.status < 300 && (await caller.client.get('/v1/me')).status !== 200) {
        // the input may also have revoked the owner's trusted devices
        const trusted = await stack.ctx
          .db('trusted_devices')
          .where({ user_id: owner.userId, device_fingerprint: deviceFingerprint })
          .whereNull('revoked_at')
          .first();
        if (!trusted) await trustDevice(stack.ctx.db, owner.userId);
        await signIn(caller.client, owner);
        caller.signIns.push(operation.operationId);
      }
    }
  }
  return findings;
}

describe('hostile input to every operation of the OpenAPI document', () => {
  it("answers a broken percent-encoding in any path parameter with the documented 400 in its surface's error shape, logging no error", async () => {
    const operations = operationsOf(document).filter((operation) => pathParameters(operation.path).length > 0);
    expect(operations.length).toBeGreaterThan(100);
    const answers: string[] = [];
    // the answer must also be the one the document states (status 400, its schema)
    for (const caller of [await anonymous({ contract: true }), await teamOwner({ contract: true })]) {
      for (const operation of operations) {
        for (const name of pathParameters(operation.path)) {
          const path = operation.path.replace(/\{(\w+)\}/g, (_match, parameter: string) => (parameter === name ? '%ZZ' : '1'));
          const reply = await sendHostile(caller, operation, { label: '%ZZ', path });
          if (reply instanceof Error) throw reply;
          const body = reply.body as {
            error?: { code?: string; details?: { reason?: string } };
            meta?: { request_id?: string };
            code?: string;
            detail?: string;
          };
          const shaped = operation.path.startsWith('/api/v1/auth/')
            ? body.code === 'validation_error' && typeof body.detail === 'string'
            : body.error?.code === 'VALIDATION_ERROR' &&
              body.error.details?.reason === 'malformed_path' &&
              body.meta?.request_id === reply.headers.get('x-request-id');
          if (reply.status !== 400 || !shaped)
            answers.push(`${caller.name}: ${operation.method.toUpperCase()} ${path} answered ${reply.status} ${JSON.stringify(body).slice(0, 200)}`);
          if (errorLines.some((line) => line.requestId === reply.headers.get('x-request-id')))
            answers.push(`${caller.name}: ${operation.method.toUpperCase()} ${path} logged at error level`);
        }
      }
    }
    expect(answers).toEqual([]);
  });

  it('answers every hostile input to every operation as its document states, never with a 5xx or an error log line, anonymous or signed in as a team owner', async () => {
    const operations = operationsOf(document);
    const documented = Object.values(document.paths).flatMap((byMethod) =>
      Object.keys(byMethod).filter((key) => ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'].includes(key)),
    );
    expect(operations).toHaveLength(documented.length);
    const callers = [await anonymous({ contract: true }), await teamOwner({ contract: true })];
    const planned = callers.map((caller) => operations.reduce((total, operation) => total + inputsOf(operation, caller.name).length, 0));
    expect(planned[0]! + planned[1]!).toBeLessThanOrEqual(MAX_REQUESTS);

    const started = Date.now();
    const sent: Sent[] = callers.map(() => ({ requests: 0, answered: new Set<string>(), refusedAsAnonymous: [], statuses: new Map<number, number>() }));
    // the two callers run side by side; each sends its own requests one after the other
    const findings = (await Promise.all(callers.map((caller, index) => fuzz(caller, operations, sent[index]!)))).flat();

    sent.forEach(({ requests, answered }, index) => {
      expect(answered.size).toBe(documented.length);
      expect(requests).toBe(planned[index]);
    });
    // the signed-in run really was signed in: no /v1 operation refused it as anonymous (401)
    expect(sent[1]!.refusedAsAnonymous).toEqual([]);
    expect((await callers[1]!.client.get('/v1/me')).status).toBe(200);
    console.info(
      `fuzz: ${operations.length} operations, ${planned[0]! + planned[1]!} requests (${planned[0]} anonymous) in ${((Date.now() - started) / 1000).toFixed(1)} s, the owner signed in again ${callers[1]!.signIns.length} times (signed out by ${[...new Set(callers[1]!.signIns)].join(', ') || 'nothing'})`,
    );
    const statuses = (index: number) =>
      [...sent[index]!.statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => `${status}: ${count}`)
        .join(', ');
    console.info(`fuzz statuses, anonymous: ${statuses(0)}; team owner: ${statuses(1)}`);
    expect(findings).toEqual([]);
  }, 180_000);
});
