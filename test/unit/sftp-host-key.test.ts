import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ssh2 from 'ssh2';
import { afterAll, describe, expect, it } from 'vitest';
import { KEYS_DIR } from '../../agent/identity.ts';
import { fingerprintOf, generateOpenSshEd25519, loadOrCreateHostKey, publicBlobOf } from '../../agent/sftp/host-key.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-host-key-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe("the SFTP host key, made and read without ssh2 (an idle agent doesn't load it)", () => {
  it('is a key ssh2 serves with and OpenSSH reads, with the public key and fingerprint they see', () => {
    const dataDir = tempDir();
    const key = loadOrCreateHostKey(dataDir);
    const parsed = ssh2.utils.parseKey(key.privateKey);
    if (parsed instanceof Error || Array.isArray(parsed)) throw new Error(`ssh2 does not parse it: ${String(parsed)}`);
    expect(parsed.type).toBe('ssh-ed25519');
    expect(parsed.verify(Buffer.from('challenge'), parsed.sign(Buffer.from('challenge')) as Buffer)).toBe(true);
    expect(key.publicLine).toBe(`ssh-ed25519 ${parsed.getPublicSSH().toString('base64')}`);

    const file = path.join(dataDir, KEYS_DIR, 'sftp-host-ed25519');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const openSshPublic = execFileSync('ssh-keygen', ['-y', '-f', file], { encoding: 'utf8' }).trim();
    expect(openSshPublic.split(' ').slice(0, 2).join(' ')).toBe(key.publicLine);
    expect(execFileSync('ssh-keygen', ['-l', '-f', file], { encoding: 'utf8' })).toContain(key.fingerprint);
  });

  it('stays the same across restarts, and reads a key ssh2 made (agents enrolled before)', () => {
    const dataDir = tempDir();
    expect(loadOrCreateHostKey(dataDir)).toEqual(loadOrCreateHostKey(dataDir));

    const older = ssh2.utils.generateKeyPairSync('ed25519').private;
    const parsed = ssh2.utils.parseKey(older);
    if (parsed instanceof Error || Array.isArray(parsed)) throw new Error('ssh2 made a key it cannot parse');
    expect(publicBlobOf(older)?.equals(parsed.getPublicSSH())).toBe(true);
    expect(fingerprintOf(publicBlobOf(older)!)).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
  });

  it('refuses what is not an unencrypted OpenSSH Ed25519 key, with the file named', () => {
    expect(publicBlobOf('not a key')).toBeNull();
    expect(publicBlobOf(generateOpenSshEd25519().replace(/[A-Za-z0-9+/]{20}/, 'A'.repeat(20)))).toBeNull();
    const dataDir = tempDir();
    fs.mkdirSync(path.join(dataDir, KEYS_DIR), { recursive: true });
    fs.writeFileSync(path.join(dataDir, KEYS_DIR, 'sftp-host-ed25519'), '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n');
    expect(() => loadOrCreateHostKey(dataDir)).toThrow(/sftp-host-ed25519 does not parse/);
  });
});
