import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal, JOURNAL_RETENTION_MS } from '../../agent/journal.ts';
import { useTempDirs } from '../helpers/temp-dirs.ts';

const dataDir = useTempDirs('berth-agent-journal-');
const succeeded = { status: 'succeeded' as const, result: { id: 'abc', created: true } };
const failed = { status: 'failed' as const, error: { message: 'deadline exceeded', exit_code: null, stderr_tail: null, permanent: false } };

describe('agent journal', () => {
  it('records a finished command and answers for it after a restart (a new Journal on the same directory)', async () => {
    const dir = dataDir();
    const journal = new Journal(dir);
    await journal.open();
    const id = '6c7e0d8e-5f6b-4a55-b1c1-2c7f0b5b1f6e:create-container';
    expect(await journal.get(id)).toBeNull();
    await journal.record(id, 'container.ensure', succeeded, new Date('2026-01-02T03:04:05Z'));
    await journal.record('op:other', 'container.exec', failed);

    const reopened = new Journal(dir);
    await reopened.open();
    expect(await reopened.get(id)).toEqual({ id, kind: 'container.ensure', finished_at: '2026-01-02T03:04:05.000Z', outcome: succeeded });
    expect((await reopened.get('op:other'))?.outcome).toEqual(failed);
    expect(await reopened.get('op:never')).toBeNull();
  });

  it('keeps one small file per command, private, with no temp file left behind', async () => {
    const dir = dataDir();
    const journal = new Journal(dir);
    await journal.open();
    // ids are long and may hold any character: file names are hashes
    const id = `${'x'.repeat(150)}:step/with/slashes:and ü`;
    await journal.record(id, 'files.put', succeeded);
    await journal.record(id, 'files.put', succeeded); // recording again replaces, atomically
    const files = fs.readdirSync(journal.dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[0-9a-f]{64}\.json$/);
    expect(fs.statSync(path.join(journal.dir, files[0]!)).mode & 0o777).toBe(0o600);
    expect((await journal.get(id))?.id).toBe(id);
  });

  it('tracks running commands in memory so a redelivery does not start one twice', () => {
    const journal = new Journal(dataDir());
    expect(journal.begin('op:a')).toBe(true);
    expect(journal.begin('op:a')).toBe(false);
    expect(journal.isRunning('op:a')).toBe(true);
    expect(journal.begin('op:b')).toBe(true);
    expect(journal.runningIds().sort()).toEqual(['op:a', 'op:b']);
    journal.end('op:a');
    expect(journal.isRunning('op:a')).toBe(false);
    expect(journal.runningIds()).toEqual(['op:b']);
    expect(journal.begin('op:a')).toBe(true);
  });

  it('prunes entries older than the retention (7 days) and stale temp files, keeping recent ones', async () => {
    const dir = dataDir();
    const journal = new Journal(dir);
    await journal.open();
    await journal.record('op:old', 'image.ensure', succeeded);
    await journal.record('op:recent', 'image.ensure', succeeded);
    const now = Date.now();
    const oldFile = fs
      .readdirSync(journal.dir)
      .find((name) => (JSON.parse(fs.readFileSync(path.join(journal.dir, name), 'utf8')) as { id: string }).id === 'op:old')!;
    const eightDaysAgo = new Date(now - JOURNAL_RETENTION_MS - 24 * 3600 * 1000);
    fs.utimesSync(path.join(journal.dir, oldFile), eightDaysAgo, eightDaysAgo);
    fs.writeFileSync(path.join(journal.dir, '.abc.json.123.tmp'), '{');
    fs.utimesSync(path.join(journal.dir, '.abc.json.123.tmp'), eightDaysAgo, eightDaysAgo);

    expect(await journal.prune(JOURNAL_RETENTION_MS, now)).toBe(2);
    expect(await journal.get('op:old')).toBeNull();
    expect(await journal.get('op:recent')).not.toBeNull();
    expect(await journal.prune(JOURNAL_RETENTION_MS, now)).toBe(0);
  });
});
