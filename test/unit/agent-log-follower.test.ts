import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changed, readNewLines } from '../../agent/logs/log-follower.ts';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-log-follower-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the agent log follower', () => {
  it('follows a file by inode and offset, from the start after truncation or replacement', async () => {
    const file = path.join(dir, 'php.log');
    fs.writeFileSync(file, 'a\nb\n');
    const first = await readNewLines(file, undefined, 1024);
    expect(first?.lines).toEqual(['a', 'b']);
    expect(await changed(file, first!.state)).toBeUndefined();
    fs.appendFileSync(file, 'c\nunfinished');
    const second = await readNewLines(file, first!.state, 1024);
    expect(second?.lines).toEqual(['c']);
    fs.writeFileSync(file, 'new\n'); // truncated: shorter than the offset
    expect((await readNewLines(file, second!.state, 1024))?.lines).toEqual(['new']);
    fs.renameSync(file, `${file}.1`); // rotated as logrotate does: a new file under the name
    fs.writeFileSync(file, 'rotated file, longer than before\n');
    expect((await readNewLines(file, second!.state, 1024))?.lines).toEqual(['rotated file, longer than before']);
  });

  it('reads at most its share, the rest next time', async () => {
    const file = path.join(dir, 'access.log');
    fs.writeFileSync(file, 'aaaa\nbbbb\ncccc\n');
    const first = await readNewLines(file, undefined, 12);
    expect(first?.lines).toEqual(['aaaa', 'bbbb']);
    expect((await readNewLines(file, first!.state, 12))?.lines).toEqual(['cccc']);
  });

  it('reads nothing through a symbolic link, from a FIFO or from a hard link', async () => {
    const link = path.join(dir, 'php.log');
    fs.symlinkSync('/etc/passwd', link);
    expect(await changed(link, undefined)).toBeUndefined();
    expect(await readNewLines(link, undefined, 1024)).toBeUndefined();
    const fifo = path.join(dir, 'fifo.log');
    execFileSync('mkfifo', [fifo]);
    expect(await changed(fifo, undefined)).toBeUndefined();
    // opened without blocking (no writer) and refused by fstat
    expect(await readNewLines(fifo, undefined, 1024)).toBeUndefined();
    const secret = path.join(dir, 'secret');
    fs.writeFileSync(secret, 'not a log\n');
    const hardLink = path.join(dir, 'linked.log');
    fs.linkSync(secret, hardLink);
    expect(await changed(hardLink, undefined)).toBeUndefined();
    expect(await readNewLines(hardLink, undefined, 1024)).toBeUndefined();
  });
});
