import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config/config.ts';
import { configErrorOf } from '../helpers/config-errors.ts';

/** BACKUP_S3_*: all or nothing, checked at start, the secret never in a message. */
const dataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'berth-config-'));
const SECRET = 'do-not-print-me-0123456789';
const s3 = {
  BACKUP_S3_ENDPOINT: 'https://s3.example.com/',
  BACKUP_S3_BUCKET: 'berth-backups',
  BACKUP_S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
  BACKUP_S3_SECRET_ACCESS_KEY: SECRET,
};

describe('backup storage settings', () => {
  it('keeps repositories on the nodes when nothing is set', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).backupStorage).toEqual({ kind: 'local' });
  });

  it('reads a store, its keys, region and CA', () => {
    const ca = path.join(dataDir(), 'ca.pem');
    fs.writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    expect(loadConfig({ DATA_DIR: dataDir(), ...s3, BACKUP_S3_REGION: 'eu-central-1', BACKUP_S3_CA_CERT: ca }).backupStorage).toEqual({
      kind: 's3',
      endpoint: 'https://s3.example.com',
      bucket: 'berth-backups',
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: SECRET,
      region: 'eu-central-1',
      caCertPem: fs.readFileSync(ca, 'utf8'),
      answerTimeoutSeconds: 60,
    });
  });

  it('refuses a store without its bucket or keys, naming each missing variable', () => {
    const message = configErrorOf(dataDir, { BACKUP_S3_ENDPOINT: s3.BACKUP_S3_ENDPOINT, BACKUP_S3_SECRET_ACCESS_KEY: SECRET });
    expect(message).toMatch(/BACKUP_S3_BUCKET: required/);
    expect(message).toMatch(/BACKUP_S3_ACCESS_KEY_ID: required/);
    expect(message).not.toMatch(/BACKUP_S3_ENDPOINT: required/);
    expect(message).not.toContain(SECRET);
    expect(configErrorOf(dataDir, { BACKUP_S3_REGION: 'eu-central-1' })).toMatch(/BACKUP_S3_ENDPOINT: required/);
  });

  it('refuses an endpoint with a path or credentials, an unreadable CA, a bad bucket name', () => {
    expect(configErrorOf(dataDir, { ...s3, BACKUP_S3_ENDPOINT: 'https://s3.example.com/bucket' })).toMatch(/BACKUP_S3_ENDPOINT: must be an origin/);
    expect(configErrorOf(dataDir, { ...s3, BACKUP_S3_ENDPOINT: 'https://key:secret@s3.example.com' })).toMatch(/BACKUP_S3_ENDPOINT/);
    expect(configErrorOf(dataDir, { ...s3, BACKUP_S3_CA_CERT: '/nonexistent/ca.pem' })).toMatch(
      /BACKUP_S3_CA_CERT: cannot read \/nonexistent\/ca.pem \(ENOENT\)/,
    );
    expect(configErrorOf(dataDir, { ...s3, BACKUP_S3_BUCKET: 'Not_A_Bucket' })).toMatch(/BACKUP_S3_BUCKET/);
    expect(configErrorOf(dataDir, { ...s3, BACKUP_S3_SECRET_ACCESS_KEY: `${SECRET} x` })).not.toContain(SECRET);
  });
});

describe('a restic failure told to the team', () => {
  it('names neither the store nor its address', async () => {
    const { withoutStorage } = await import('../../workers/backups/restic-run.ts');
    const storage = {
      kind: 's3',
      endpoint: 'https://s3.internal.example:9000',
      bucket: 'berth-backups',
      accessKeyId: 'AKIA123',
      secretAccessKey: 'x',
      region: undefined,
      caCertPem: undefined,
      answerTimeoutSeconds: 60,
    } as const;
    const said = withoutStorage(
      'Fatal: unable to open repository at s3:https://s3.internal.example:9000/berth-backups/nodes/1: Head "https://s3.internal.example:9000/berth-backups/nodes/1/config": dial tcp 10.0.3.4:9000: connect: connection refused (key AKIA123)',
      storage,
    );
    expect(said).toBe(
      'Fatal: unable to open repository at s3:<backup storage>/<backup storage>/nodes/1: Head "<backup storage>/<backup storage>/nodes/1/config": dial tcp <backup storage>: connect: connection refused (key <backup storage>)',
    );
    expect(withoutStorage('dial tcp 10.0.3.4:9000', { kind: 'local' })).toBe('dial tcp 10.0.3.4:9000');
  });
});
