import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueAgentCommand, recordResult } from '../../../shared/domains/agent/agent-commands.ts';
import { issueEnrollmentToken } from '../../../shared/domains/nodes/enrollment.ts';
import { insertTestOperation, testKind } from '../../helpers/test-operations.ts';
import { createUpload, type Upload } from '../../../shared/domains/uploads/uploads.ts';
import { runAgentCommand } from '../../../workers/agent/run-command.ts';
import { StepFailed } from '../../../workers/operations/runbook.ts';
import { spawnAgent, type AgentProcess } from '../../helpers/agent-process.ts';
import { agentProtocol, asAgent, enrolledAgent, nodeRow, type TestAgent } from '../../helpers/enrolled-agent.ts';
import { createOwner, unique, type TestUser } from '../../helpers/factories.ts';
import { dockerSocket } from '../../helpers/runtime-peers.ts';
import { sha256Hex } from '../../helpers/sha256.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { zipArchive } from '../../helpers/zip.ts';

/**
 * An upload on its way to a node: GET /v1/agent/uploads/{id} hands the bytes only to a node with an
 * unfinished files.fetch naming it, and the real agent process fetches, verifies and places them.
 */
let stack: Stack;
let owner: TestUser;
const running: AgentProcess[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  stack = await startStack({ workers: false });
  owner = await createOwner(stack.ctx.db);
});
afterAll(async () => {
  for (const agent of running.splice(0)) if (agent.child.exitCode === null && agent.child.signalCode === null) agent.child.kill('SIGKILL');
  await stack?.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function newUpload(content: Buffer, now?: Date): Promise<Upload> {
  return createUpload(stack.ctx.db, { teamId: owner.teamId, userId: owner.userId, filename: 'plugin.zip', contentType: 'application/zip', content }, now);
}

function fetchPayload(upload: Upload, overrides: Record<string, unknown> = {}) {
  return { upload_id: upload.id, sha256: upload.sha256, size_bytes: upload.size_bytes, path: 'uploads/plugin.zip', ...overrides };
}

async function queueFetch(nodeId: string, upload: Upload): Promise<string> {
  const id = unique('fetch');
  await queueAgentCommand(stack.ctx, {
    id,
    nodeId,
    operationId: null,
    kind: 'files.fetch',
    payload: fetchPayload(upload),
    deadlineAt: new Date(Date.now() + 60_000),
  });
  return id;
}

describe('GET /v1/agent/uploads/{id}', () => {
  it('is 404 unless this node has an unfinished files.fetch for the upload; then it streams the bytes', async () => {
    const a = await enrolledAgent(stack);
    const b = await enrolledAgent(stack);
    // over one read chunk (1 MiB), so the answer is streamed from several reads
    const bytes = Buffer.concat([zipArchive({ 'big-plugin/plugin.php': '<?php' }), randomBytes(2.5 * 1024 * 1024)]);
    const upload = await newUpload(bytes);
    const download = async (node: TestAgent, id = upload.id) => stack.client().get(`/v1/agent/uploads/${id}`, await asAgent(node));

    for (const reply of [await download(a), await download(b)]) {
      expect(reply.status).toBe(404);
      expect(reply.body.error.code).toBe('NOT_FOUND');
    }
    const commandId = await queueFetch(b.nodeId, upload);
    expect((await download(a)).status).toBe(404); // another node's command opens nothing to this one
    const served = await download(b);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/octet-stream');
    expect(served.headers.get('content-length')).toBe(String(bytes.length));
    expect(served.headers.get('x-content-sha256')).toBe(sha256Hex(bytes));
    expect(Buffer.compare(served.bytes, bytes)).toBe(0);

    // delivered is still unfinished; once the command has ended, the upload is closed to the node again
    await stack.ctx
      .db('agent_commands')
      .where({ id: commandId })
      .update({ status: 'delivered', lease_until: new Date(Date.now() + 60_000) });
    expect((await download(b)).status).toBe(200);
    await recordResult(stack.ctx, b.nodeId, commandId, {
      status: 'succeeded',
      result: { path: 'uploads/plugin.zip', bytes: bytes.length, sha256: sha256Hex(bytes) },
    });
    expect((await download(b)).status).toBe(404);
  });

  it('is 404 for an expired upload, an unknown or malformed id, and refuses an agent without a token', async () => {
    const node = await enrolledAgent(stack);
    const expired = await newUpload(zipArchive({ 'a.php': '<?php' }), new Date(Date.now() - 25 * 60 * 60 * 1000));
    await queueFetch(node.nodeId, expired);
    for (const id of [expired.id, '1b4e28ba-2fa1-4d2b-883f-0016d3cca427', 'not-a-uuid']) {
      const reply = await stack.client().get(`/v1/agent/uploads/${id}`, await asAgent(node));
      expect(reply.status, id).toBe(404);
    }
    expect((await stack.client().get(`/v1/agent/uploads/${expired.id}`, { headers: agentProtocol })).status).toBe(401);
  });
});

describe('files.fetch through the real agent', () => {
  let nodeId: string;
  let dataDir: string;
  const operation = () => insertTestOperation(stack.ctx.db, testKind('test.fetch', 'fetch'), { teamId: null, target: { type: 'node', id: 'files-fetch' } });

  beforeAll(async () => {
    nodeId = await nodeRow(stack);
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-agent-fetch-'));
    dirs.push(home);
    dataDir = path.join(home, 'data');
    const configFile = path.join(home, 'config.json');
    fs.writeFileSync(
      configFile,
      JSON.stringify({
        control_plane_url: stack.api.url,
        data_dir: dataDir,
        docker_socket: dockerSocket(),
        enrollment_token: await issueEnrollmentToken(stack.ctx.db, nodeId),
      }),
      { mode: 0o600 },
    );
    const agent = spawnAgent({ env: { AGENT_CONFIG: configFile } });
    running.push(agent);
    await agent.waitForLog((line) => line.msg === 'agent running');
  });

  it('downloads the upload into the data directory, verified, with its mode; a second fetch finds it there', async () => {
    const bytes = zipArchive({ 'hello-dolly/hello.php': '<?php /* Plugin Name: Hello Dolly */', 'hello-dolly/readme.txt': 'x'.repeat(5000) });
    const upload = await newUpload(bytes);
    const op = await operation();
    const result = await runAgentCommand(stack.ctx, {
      operation: op,
      step: 'fetch',
      nodeId,
      kind: 'files.fetch',
      timeoutSeconds: 60,
      payload: { ...fetchPayload(upload), mode: 0o640 },
    });
    expect(result).toEqual({ path: 'uploads/plugin.zip', bytes: bytes.length, sha256: sha256Hex(bytes) });
    const file = path.join(dataDir, 'uploads/plugin.zip');
    expect(Buffer.compare(fs.readFileSync(file), bytes)).toBe(0);
    expect(fs.statSync(file).mode & 0o7777).toBe(0o640);
    expect(fs.readdirSync(path.join(dataDir, 'uploads'))).toEqual(['plugin.zip']);

    // Idempotent: the file is already there with that digest, so the second command (another id,
    // not answered from the journal) downloads nothing; it only sets the mode it asks for.
    const again = await runAgentCommand(stack.ctx, {
      operation: op,
      step: 'fetch',
      part: 'again',
      nodeId,
      kind: 'files.fetch',
      timeoutSeconds: 60,
      payload: fetchPayload(upload),
    });
    expect(again).toEqual(result);
    const lines: string[] = await stack.ctx.db('operation_logs').where({ operation_id: op.id }).orderBy('id').pluck('line');
    expect(lines.filter((line) => line.startsWith('fetched upload'))).toEqual([`fetched upload ${upload.id} (${bytes.length} bytes) to uploads/plugin.zip`]);
    expect(lines.filter((line) => line.includes('already holds'))).toEqual([`uploads/plugin.zip already holds upload ${upload.id}: not downloaded again`]);
    expect(fs.statSync(file).mode & 0o7777).toBe(0o644);
  }, 60_000);

  it('fails for good on a wrong SHA-256 or size and leaves no file behind', async () => {
    const bytes = zipArchive({ 'theme/style.css': '/* Theme Name: Test */' });
    const upload = await newUpload(bytes);
    const op = await operation();
    const cases = [
      ['digest', { sha256: 'f'.repeat(64), path: 'uploads/wrong-digest.zip' }, /SHA-256 [0-9a-f]{64} received, f{64} expected/],
      ['short', { size_bytes: bytes.length + 1, path: 'uploads/wrong-size.zip' }, new RegExp(`${bytes.length} bytes received, ${bytes.length + 1} expected`)],
      ['long', { size_bytes: bytes.length - 1, path: 'uploads/too-big.zip' }, new RegExp(`more than ${bytes.length - 1} bytes received`)],
    ] as const;
    for (const [part, overrides, message] of cases) {
      const error = await runAgentCommand(stack.ctx, {
        operation: op,
        step: 'fetch',
        part,
        nodeId,
        kind: 'files.fetch',
        timeoutSeconds: 60,
        payload: fetchPayload(upload, overrides),
      }).catch((caught: unknown) => caught);
      expect(error, overrides.path).toBeInstanceOf(StepFailed);
      expect((error as StepFailed).permanent, overrides.path).toBe(true);
      expect((error as StepFailed).message, overrides.path).toMatch(message);
      expect(fs.existsSync(path.join(dataDir, overrides.path)), overrides.path).toBe(false);
    }
    expect(fs.readdirSync(path.join(dataDir, 'uploads')).filter((name) => name !== 'plugin.zip')).toEqual([]);
  }, 60_000);

  it('fails for good when the control plane refuses the download (the upload expired)', async () => {
    const upload = await newUpload(zipArchive({ 'gone.php': '<?php' }), new Date(Date.now() - 25 * 60 * 60 * 1000));
    const op = await operation();
    const error = await runAgentCommand(stack.ctx, {
      operation: op,
      step: 'fetch',
      nodeId,
      kind: 'files.fetch',
      timeoutSeconds: 60,
      payload: fetchPayload(upload, { path: 'uploads/gone.zip' }),
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StepFailed);
    expect((error as StepFailed).permanent).toBe(true);
    expect((error as StepFailed).message).toMatch(new RegExp(`downloading upload ${upload.id} failed: GET /v1/agent/uploads/${upload.id}: 404 NOT_FOUND`));
    expect(fs.existsSync(path.join(dataDir, 'uploads/gone.zip'))).toBe(false);
  }, 60_000);
});
