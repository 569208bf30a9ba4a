import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { permits } from '../../agent/sftp/access.ts';
import type { AgentConfig } from '../../agent/config.ts';
import { assertSymlinkTarget, jailParts } from '../../agent/sftp/jail.ts';
import { AttemptBucket, BoundedSemaphore, CountPerKey, nameDigest, USERNAME_PATTERN } from '../../agent/sftp/limits.ts';
import { verifyPassword } from '../../agent/sftp/password.ts';
import { startSftp } from '../../agent/sftp/sftp-service.ts';
import { DEFAULT_THROTTLE, LoginThrottle } from '../../agent/sftp/throttle.ts';
import { SftpUserStore } from '../../agent/sftp/user-store.ts';
import { hashPassword } from '../../shared/crypto/passwords.ts';
import { parsePublicKey } from '../../shared/domains/sftp/public-keys.ts';
import { derivedUsername, USERNAME_PATTERN as SHARED_USERNAME_PATTERN } from '../../shared/domains/sftp/usernames.ts';
import type { Logger } from '../../shared/logger.ts';
import { writeFileIn } from '../helpers/tree.ts';

describe("the SFTP jail's paths", () => {
  it('starts relative paths at the top, clamps .. there and reads absolute paths inside', () => {
    expect(jailParts('')).toEqual([]);
    expect(jailParts('/')).toEqual([]);
    expect(jailParts('..')).toEqual([]);
    expect(jailParts('../../etc/passwd')).toEqual(['etc', 'passwd']);
    expect(jailParts('/etc/passwd')).toEqual(['etc', 'passwd']);
    expect(jailParts('wp-content/./uploads/../themes//x')).toEqual(['wp-content', 'themes', 'x']);
    expect(() => jailParts('a\0b')).toThrow();
  });
});

describe('SFTP symlink targets', () => {
  it('accepts relative targets pointing down, refuses absolute ones and any ..', () => {
    for (const target of ['wp-config.php', 'wp-content/uploads', './a/b', 'a//b/']) expect(() => assertSymlinkTarget(target, '/link')).not.toThrow();
    // a/.. alone stays inside, but through a chain of links (x -> .., y -> x/..) each step climbs
    for (const target of ['..', 'a/..', 'x/../..', '../etc', 'a/../../b', '/etc/shadow', '', 'a\0b'])
      expect(() => assertSymlinkTarget(target, '/link'), target).toThrow();
  });
});

describe('the SFTP login throttle', () => {
  it('holds each wrong answer longer, locks out after the limit, and lets the lockout end', () => {
    let now = 0;
    const throttle = new LoginThrottle({ maxFailures: 3, windowMs: 60_000, lockoutMs: 10_000, baseDelayMs: 100, maxDelayMs: 250 }, () => now);
    expect([throttle.attempt('u|ip'), throttle.attempt('u|ip')]).toEqual([100, 200]);
    expect(throttle.lockedFor('u|ip')).toBe(0);
    expect(throttle.attempt('u|ip')).toBe(250);
    expect(throttle.lockedFor('u|ip')).toBe(10_000);
    expect(throttle.lockedFor('u|other-ip')).toBe(0);
    now = 10_001;
    expect(throttle.lockedFor('u|ip')).toBe(0);
    throttle.attempt('u|ip'); // one more failure right after a lockout locks again
    expect(throttle.lockedFor('u|ip')).toBeGreaterThan(0);
    throttle.succeeded('u|ip');
    expect(throttle.lockedFor('u|ip')).toBe(0);
  });
});

describe('what one SFTP client may cost the agent', () => {
  it('keeps lockouts when a flood of new names and addresses fills the throttle', () => {
    const throttle = new LoginThrottle({ maxFailures: 2, windowMs: 60_000, lockoutMs: 60_000, baseDelayMs: 1, maxDelayMs: 1 }, () => 0, 3);
    throttle.attempt('victim|ip');
    throttle.attempt('victim|ip');
    expect(throttle.lockedFor('victim|ip')).toBe(60_000);
    for (let junk = 0; junk < 50; junk++) throttle.attempt(`junk-${junk}|ip`);
    expect(throttle.lockedFor('victim|ip')).toBe(60_000);
  });

  it('runs at most N verifications at once, queues a bounded number, refuses the rest at once', async () => {
    const semaphore = new BoundedSemaphore(2, 3);
    let running = 0;
    let most = 0;
    const releases: Array<() => void> = [];
    const task = () =>
      new Promise<string>((resolve) => {
        running += 1;
        most = Math.max(most, running);
        releases.push(() => {
          running -= 1;
          resolve('done');
        });
      });
    const results = Array.from({ length: 7 }, () => semaphore.run(task));
    expect(await Promise.race([results[5], results[6]])).toBeNull(); // 2 running + 3 waiting: the 6th and 7th are refused
    expect(await results[6]).toBeNull();
    while (releases.length > 0 || running > 0) {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect((await Promise.all(results.slice(0, 5))).map((result) => result?.value)).toEqual(['done', 'done', 'done', 'done', 'done']);
    expect(most).toBe(2);
    expect((await semaphore.run(async () => 'again'))?.value).toBe('again'); // every slot came back
  });

  it('counts password attempts per address whatever the names, per window', () => {
    let now = 0;
    const bucket = new AttemptBucket(3, 1000, () => now);
    expect([bucket.take('ip'), bucket.take('ip'), bucket.take('ip'), bucket.take('ip'), bucket.take('other')]).toEqual([true, true, true, false, true]);
    now = 1000;
    expect(bucket.take('ip')).toBe(true);
  });

  it('caps live connections per key and gives the place back', () => {
    const counts = new CountPerKey(2);
    expect([counts.take('ip'), counts.take('ip'), counts.take('ip')]).toEqual([true, true, false]);
    counts.release('ip');
    expect(counts.take('ip')).toBe(true);
  });

  it("checks usernames with the API's rule and logs a name no user has only as a digest", () => {
    expect(USERNAME_PATTERN.source).toBe(SHARED_USERNAME_PATTERN.source);
    expect(nameDigest('x'.repeat(5000))).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(nameDigest('evil\n{"msg":"forged"}')).not.toContain('evil');
    expect(nameDigest('hunter2-password')).toBe(nameDigest('hunter2-password'));
    expect(nameDigest('hunter2-password')).not.toBe(nameDigest('hunter2-passworD'));
  });
});

describe('SFTP credentials', () => {
  it("verifies the control plane's argon2id hashes on the agent", async () => {
    const hash = await hashPassword('Ünïcode password');
    expect(await verifyPassword(hash, 'Ünïcode password'.normalize('NFD'))).toBe(true);
    expect(await verifyPassword(hash, 'another password')).toBe(false);
    expect(await verifyPassword('not a hash', 'x')).toBe(false);
  });

  it('parses OpenSSH public keys with the fingerprint ssh-keygen prints', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-keys-'));
    try {
      execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'me@laptop', '-f', path.join(dir, 'k')]);
      const parsed = parsePublicKey(fs.readFileSync(path.join(dir, 'k.pub'), 'utf8'), 'public_keys.0');
      expect(parsed).toMatchObject({
        type: 'ssh-ed25519',
        comment: 'me@laptop',
        fingerprint: execFileSync('ssh-keygen', ['-l', '-f', path.join(dir, 'k.pub')], { encoding: 'utf8' }).split(' ')[1],
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(() => parsePublicKey('ssh-ed25519 AAAA', 'k')).toThrow(/not a valid/);
    expect(() => parsePublicKey('-----BEGIN OPENSSH PRIVATE KEY-----', 'k')).toThrow(/OpenSSH public key line/);
  });

  it('derives readable usernames that the pattern accepts', () => {
    expect(derivedUsername('9-lives-shop-with-a-very-long-name', 'staging')).toMatch(/^lives-shop-with-a-ve-stage-[a-z2-9]{4}$/);
    expect(derivedUsername('123', 'development')).toMatch(/^site-dev-[a-z2-9]{4}$/);
  });
});

describe("the agent's SFTP users", () => {
  it('keeps users across a restart and never serves a revoked one again, whatever the order', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-sftp-store-'));
    try {
      const entry = { id: 7, username: 'shop-prod-abcd', password_hash: null, public_keys: ['ssh-ed25519 AAAA'], root: 'sites/env-1/files', uid: 33, gid: 33 };
      const store = new SftpUserStore(dataDir);
      store.load();
      expect(await store.put([entry])).toEqual({ written: 1, refused: [], replaced: [] });
      expect((await store.put([{ ...entry, public_keys: [] }])).replaced).toEqual([7]); // its sessions are cut
      expect((await store.put([entry])).replaced).toEqual([7]);
      expect((await store.put([entry])).replaced).toEqual([]); // the same entry again: nothing changed
      const reloaded = new SftpUserStore(dataDir);
      reloaded.load();
      expect(reloaded.find('shop-prod-abcd')).toEqual(entry);
      expect((await reloaded.remove([{ id: 7, username: 'shop-prod-abcd' }])).length).toBe(1);
      expect(await reloaded.put([entry])).toEqual({ written: 0, refused: ['shop-prod-abcd'], replaced: [] });
      const again = new SftpUserStore(dataDir);
      again.load();
      expect(again.find('shop-prod-abcd')).toBeUndefined();
      expect(fs.statSync(path.join(dataDir, 'sftp', 'users.json')).mode & 0o777).toBe(0o600);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("the agent's SFTP start", () => {
  it('leaves SFTP off, and the agent running, when the users file or the host key is corrupt', async () => {
    for (const [file, content] of [
      ['sftp/users.json', '{ not json'],
      ['keys/sftp-host-ed25519', 'not a key'],
    ] as const) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-sftp-start-'));
      try {
        writeFileIn(dataDir, file, content);
        const logger = { error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() };
        const config = { dataDir, sftpHost: '127.0.0.1', sftpPort: 0, sftpThrottle: DEFAULT_THROTTLE } as unknown as AgentConfig;
        expect(await startSftp(config, logger as unknown as Logger), file).toBeUndefined();
        expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ error: expect.any(String) }), expect.stringContaining('SFTP is off'));
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }
  });
});

describe('the permission check made for the site', () => {
  const site = { uid: 33, gid: 33 };
  it('reads the owner, group and other bits the way the kernel does', () => {
    expect(permits({ uid: 33, gid: 33, mode: 0o644 }, site, 'write')).toBe(true);
    expect(permits({ uid: 33, gid: 33, mode: 0o444 }, site, 'write')).toBe(false);
    expect(permits({ uid: 0, gid: 0, mode: 0o644 }, site, 'read')).toBe(true);
    expect(permits({ uid: 0, gid: 0, mode: 0o644 }, site, 'write')).toBe(false);
    expect(permits({ uid: 0, gid: 0, mode: 0o600 }, site, 'read')).toBe(false);
    expect(permits({ uid: 0, gid: 33, mode: 0o660 }, site, 'write')).toBe(true);
    expect(permits({ uid: 0, gid: 0, mode: 0o777 }, site, 'write')).toBe(true);
    // the owner's bits decide for the owner, even when others may more
    expect(permits({ uid: 33, gid: 0, mode: 0o077 }, site, 'read')).toBe(false);
  });
});
