import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ssh2, { type SFTPWrapper } from 'ssh2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SftpSession } from '../../agent/sftp/sftp-session.ts';
import { createLogger } from '../../shared/logger.ts';

const { STATUS_CODE, OPEN_MODE } = ssh2.utils.sftp;

type Answer =
  | { type: 'status'; code: number; message?: string }
  | { type: 'handle'; handle: Buffer }
  | { type: 'data'; data: Buffer }
  | { type: 'name'; names: Array<{ filename: string }> }
  | { type: 'attrs' };

/**
 * The server side of an SFTP channel as ssh2 drives SftpSession: requests are events, answers are
 * method calls. Requests can be sent all at once, as a pipelining client does.
 */
class FakeChannel extends EventEmitter {
  private readonly waiting = new Map<number, (answer: Answer) => void>();
  readonly order: number[] = [];
  private nextId = 1;
  private answer(id: number, answer: Answer): void {
    this.order.push(id);
    this.waiting.get(id)?.(answer);
  }
  status(id: number, code: number, message?: string) {
    this.answer(id, { type: 'status', code, message });
  }
  handle(id: number, handle: Buffer) {
    this.answer(id, { type: 'handle', handle });
  }
  data(id: number, data: Buffer) {
    this.answer(id, { type: 'data', data });
  }
  name(id: number, names: Array<{ filename: string }>) {
    this.answer(id, { type: 'name', names });
  }
  attrs(id: number) {
    this.answer(id, { type: 'attrs' });
  }
  end() {}
  destroy() {}

  /** Sends one request now; its answer later. */
  send(event: string, ...args: unknown[]): { id: number; answer: Promise<Answer> } {
    const id = this.nextId++;
    const answer = new Promise<Answer>((resolve) => this.waiting.set(id, resolve));
    this.emit(event, id, ...args);
    return { id, answer };
  }
}

const handleOf = (answer: Answer) => {
  if (answer.type !== 'handle') throw new Error(`not a handle: ${JSON.stringify(answer)}`);
  return answer.handle;
};
const openFds = () => fs.readdirSync('/proc/self/fd').length;

let dataDir: string;
let files: string;
let channel: FakeChannel;
let served: boolean;
let session: SftpSession;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-sftp-session-'));
  files = path.join(dataDir, 'sites', 'env-1', 'files');
  fs.mkdirSync(files, { recursive: true });
  channel = new FakeChannel();
  served = true;
  const user = { username: 'shop-prod-abcd', root: 'sites/env-1/files', uid: process.getuid!(), gid: process.getgid!() };
  session = new SftpSession(channel as unknown as SFTPWrapper, user, dataDir, createLogger({ level: 'silent', name: 'test' }), () => served);
});

afterEach(async () => {
  await session.revoke();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('an SFTP session', () => {
  it('refuses every request once revoked, closes its handles, and hands out unguessable handle ids', async () => {
    const before = openFds();
    const first = handleOf(await channel.send('OPEN', 'a.txt', OPEN_MODE.WRITE | OPEN_MODE.CREAT, {}).answer);
    const second = handleOf(await channel.send('OPEN', 'b.txt', OPEN_MODE.WRITE | OPEN_MODE.CREAT, {}).answer);
    expect(first.length).toBe(16);
    expect(first.equals(second)).toBe(false);
    expect(openFds()).toBe(before + 2);
    await session.revoke();
    expect(openFds()).toBe(before);
    const wrote = await channel.send('WRITE', first, 0, Buffer.from('late')).answer;
    const opened = await channel.send('OPEN', 'c.txt', OPEN_MODE.WRITE | OPEN_MODE.CREAT, {}).answer;
    expect([wrote, opened]).toEqual([
      { type: 'status', code: STATUS_CODE.PERMISSION_DENIED, message: 'access revoked' },
      { type: 'status', code: STATUS_CODE.PERMISSION_DENIED, message: 'access revoked' },
    ]);
    expect(fs.readFileSync(path.join(files, 'a.txt'), 'utf8')).toBe('');
    expect(fs.existsSync(path.join(files, 'c.txt'))).toBe(false);
  });

  it('asks whether the user is still served before each request', async () => {
    served = false;
    expect(await channel.send('OPEN', 'x.txt', OPEN_MODE.WRITE | OPEN_MODE.CREAT, {}).answer).toMatchObject({ code: STATUS_CODE.PERMISSION_DENIED });
    expect(fs.existsSync(path.join(files, 'x.txt'))).toBe(false);
  });

  it('counts pipelined OPENs and OPENDIRs against the handle limit as they arrive', async () => {
    for (let index = 0; index < 300; index++) fs.writeFileSync(path.join(files, `f${index}`), '');
    const handles: Buffer[] = [];
    for (let wave = 0; wave < 4; wave++) {
      const answers = await Promise.all(Array.from({ length: 60 }, (_, index) => channel.send('OPEN', `f${wave * 60 + index}`, OPEN_MODE.READ, {}).answer));
      handles.push(...answers.map(handleOf));
    }
    // 240 open: of 60 more sent at once (files and directories), only 16 fit under 256
    const last = await Promise.all(
      Array.from({ length: 60 }, (_, index) => (index % 2 ? channel.send('OPENDIR', '/') : channel.send('OPEN', `f${240 + index}`, OPEN_MODE.READ, {})).answer),
    );
    expect(last.filter((answer) => answer.type === 'handle').length).toBe(16);
    expect(last.find((answer) => answer.type === 'status')).toMatchObject({
      code: STATUS_CODE.FAILURE,
      message: expect.stringContaining('too many open handles'),
    });
  });

  it('refuses requests beyond 64 in flight and answers at most 64 KiB per READ', async () => {
    fs.writeFileSync(path.join(files, 'big.bin'), Buffer.alloc(200_000, 7));
    const handle = handleOf(await channel.send('OPEN', 'big.bin', OPEN_MODE.READ, {}).answer);
    await new Promise((resolve) => setImmediate(resolve)); // the OPEN's own place is given back just after its answer
    const answers = await Promise.all(Array.from({ length: 80 }, () => channel.send('READ', handle, 0, 1_000_000).answer));
    const refused = answers.filter((answer) => answer.type === 'status');
    expect(refused.length).toBe(16);
    expect(refused[0]).toMatchObject({ code: STATUS_CODE.FAILURE, message: expect.stringContaining('too many requests') });
    expect(answers.filter((answer) => answer.type === 'data').every((answer) => answer.type === 'data' && answer.data.length === 64 * 1024)).toBe(true);
  });

  it('closes a directory handle only after a READDIR in flight on it has finished', async () => {
    for (let index = 0; index < 150; index++) fs.writeFileSync(path.join(files, `entry-${String(index).padStart(3, '0')}`), '');
    const handle = handleOf(await channel.send('OPENDIR', '/').answer);
    const listing = channel.send('READDIR', handle);
    const closing = channel.send('CLOSE', handle);
    const afterClose = channel.send('READDIR', handle);
    const [listed, closed, refused] = await Promise.all([listing.answer, closing.answer, afterClose.answer]);
    expect(listed.type).toBe('name');
    const names = listed.type === 'name' ? listed.names.map((entry) => entry.filename) : [];
    expect(names.length).toBe(100); // one batch, every entry stat'ed through the still-open descriptor
    expect(names.filter((name) => name.startsWith('entry-')).length).toBe(98);
    expect(closed).toEqual({ type: 'status', code: STATUS_CODE.OK, message: undefined });
    expect(channel.order.indexOf(closing.id)).toBeGreaterThan(channel.order.indexOf(listing.id));
    expect(refused).toMatchObject({ type: 'status', code: STATUS_CODE.FAILURE });
  });
});
