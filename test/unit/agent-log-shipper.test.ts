import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOG_BATCH_MAX_BYTES, type LogsRequest } from '../../shared/agent-protocol/protocol.ts';
import { environmentLogPaths } from '../../shared/agent-protocol/log-files.ts';
import { createLogger } from '../../shared/logger.ts';
import { ControlPlaneLink } from '../../agent/link.ts';
import { ControlPlaneError } from '../../agent/protocol-client.ts';
import { LogShipper } from '../../agent/logs/log-shipper.ts';

let dataDir: string;
let sent: LogsRequest[];
let failNext: boolean;
/** Every batch id the shipper tried to send, answered or not. */
let attempts: string[];
const logger = createLogger({ level: 'silent', name: 'test' });

const shipper = () =>
  new LogShipper({
    dataDir,
    intervalMs: 1000,
    link: new ControlPlaneLink(logger),
    logger,
    ship: async (batch) => {
      attempts.push(batch.batch_id);
      if (failNext) {
        failNext = false;
        throw new ControlPlaneError('unreachable', 'connection refused');
      }
      sent.push(structuredClone(batch));
    },
  });
const file = (key: string, which: 'access' | 'error' | 'php') => path.join(dataDir, environmentLogPaths(key)[which]);
const append = (key: string, which: 'access' | 'error' | 'php', text: string) => {
  fs.mkdirSync(path.dirname(file(key, which)), { recursive: true });
  fs.appendFileSync(file(key, which), text);
};

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-log-shipper-'));
  fs.mkdirSync(path.join(dataDir, 'sites/env-1/work'), { recursive: true });
  sent = [];
  failNext = false;
  attempts = [];
});
afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the agent log shipper', () => {
  it('sends nothing while nothing grows, and what existed before it started is not sent', async () => {
    append('env-1', 'access', 'old line\n');
    const logs = shipper();
    await logs.tick();
    await logs.tick();
    expect(sent).toEqual([]);
    append('env-1', 'access', 'new line\n');
    append('env-1', 'php', 'first warning\n'); // a file that appeared after the start: read from its start
    await logs.tick();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.files).toEqual([
      { environment_id: 1, file: 'access', lines: ['new line'] },
      { environment_id: 1, file: 'php', lines: ['first warning'] },
    ]);
    await logs.tick();
    expect(sent).toHaveLength(1);
  });

  it('sends an unanswered batch again with the same id before reading more', async () => {
    const logs = shipper();
    await logs.tick();
    append('env-1', 'error', 'one\n');
    failNext = true;
    await expect(logs.tick()).rejects.toThrow('connection refused');
    append('env-1', 'error', 'two\n');
    await logs.tick();
    await logs.tick();
    expect(sent.map((batch) => batch.files[0]!.lines)).toEqual([['one'], ['two']]);
    expect(attempts).toEqual([sent[0]!.batch_id, sent[0]!.batch_id, sent[1]!.batch_id]);
    expect(sent[0]!.batch_id).not.toBe(sent[1]!.batch_id);
  });

  it('caps a batch and shares it between the files that grew', async () => {
    fs.mkdirSync(path.join(dataDir, 'sites/env-2/work'), { recursive: true });
    const logs = shipper();
    await logs.tick();
    const line = `${'x'.repeat(99)}\n`;
    const many = Math.floor((2 * LOG_BATCH_MAX_BYTES) / line.length);
    append('env-1', 'access', line.repeat(many)); // two batches' worth
    append('env-2', 'php', line.repeat(10));
    const bytes = (batch: LogsRequest) => batch.files.reduce((sum, entry) => sum + entry.lines.reduce((n, text) => n + text.length + 1, 0), 0);
    for (let tick = 0; tick < 10; tick += 1) await logs.tick();
    for (const batch of sent) expect(bytes(batch)).toBeLessThanOrEqual(LOG_BATCH_MAX_BYTES);
    // the small file is not starved by the big one: all of it in the first batch
    expect(sent[0]!.files.find((entry) => entry.environment_id === 2)?.lines).toHaveLength(10);
    const shipped = sent.flatMap((batch) => batch.files.filter((entry) => entry.environment_id === 1).flatMap((entry) => entry.lines));
    expect(shipped).toHaveLength(many);
    expect(sent.length).toBeGreaterThanOrEqual(3);
  });
});
