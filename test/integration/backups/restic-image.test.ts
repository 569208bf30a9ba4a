import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resticMessages, resticSummary } from '../../helpers/restic-reader.ts';
import { startS3Server, type TestS3Server } from '../../helpers/s3-server.ts';
import { testStateDir, wordpressImages } from '../../helpers/runtime-peers.ts';
import { docker, execResult } from '../../helpers/site-node.ts';
import { writeFileIn } from '../../helpers/tree.ts';

/**
 * The node's backup image (ops/images/backup.sh) with real restic against a local repository and a
 * real S3-protocol server (npm's s3rver, test/helpers/s3-server.ts): what the agent's backup
 * commands will run through exec, proven piece by piece before they are wired into operations.
 */
const run = randomBytes(4).toString('hex');
const label = { 'berth.test': `restic-image-${run}` };
const home = path.join(testStateDir(), 'restic-image-tests', run);
const dirs = { files: path.join(home, 'files'), repo: path.join(home, 'repo'), restore: path.join(home, 'restore') };
const PASSWORD = `repo-${randomBytes(12).toString('hex')}`;
// what a database dump looks like to restic: a stream from a command, stored as one file
const DUMP_COMMAND = 'for i in $(seq 1 2000); do printf "INSERT INTO wp_posts VALUES (%d, \'post %d\');\\n" $i $i; done';
const dumpText = Array.from({ length: 2000 }, (_, i) => `INSERT INTO wp_posts VALUES (${i + 1}, 'post ${i + 1}');\n`).join('');

let s3: TestS3Server;
let container: string;

type ExecAnswer = { exit_code: number; stdout: string; stderr: string };

/** restic in the backup container, the repository and its secrets in the exec's environment only. */
function resticExec(env: Record<string, string>, args: string[]): Promise<ExecAnswer> {
  return execResult(container, ['restic', ...args], env);
}

async function resticOk(env: Record<string, string>, args: string[]): Promise<string> {
  const answer = await resticExec(env, args);
  if (answer.exit_code !== 0) throw new Error(`restic ${args.join(' ')} exited ${answer.exit_code}: ${answer.stderr.trim()}`);
  return answer.stdout;
}

function writeTree(): Record<string, Buffer> {
  const tree: Record<string, Buffer> = {
    'index.php': Buffer.from("<?php\nrequire __DIR__ . '/wp-blog-header.php';\n"),
    'wp-content/uploads/2026/11/photo.jpg': randomBytes(1_500_000),
    'wp-content/themes/theme/style.css': Buffer.from('/* Theme Name: Test */\n'),
    'wp-content/uploads/empty.txt': Buffer.alloc(0),
    'wp-content/uploads/ünïcode name.txt': Buffer.from('kept byte for byte\n'),
  };
  for (const [file, bytes] of Object.entries(tree)) writeFileIn(dirs.files, file, bytes);
  return tree;
}

beforeAll(async () => {
  for (const dir of Object.values(dirs)) fs.mkdirSync(dir, { recursive: true });
  s3 = await startS3Server();
  const created = await docker.createContainer({
    name: `berth-restic-image-${run}`,
    Image: wordpressImages().backup,
    Labels: label,
    HostConfig: {
      Binds: [`${dirs.files}:/data/files:ro`, `${dirs.repo}:/repo`, `${dirs.restore}:/restore`, `${s3.caCertPath}:/etc/berth/s3-ca.pem:ro`],
    },
  });
  await created.start();
  container = created.id;
}, 60_000);

afterAll(async () => {
  const containers = await docker.listContainers({ all: true, filters: { label: [`berth.test=${label['berth.test']}`] } });
  await Promise.all(containers.map((c) => docker.getContainer(c.Id).remove({ force: true, v: true })));
  await s3?.stop();
  fs.rmSync(home, { recursive: true, force: true });
});

/** One repository's life: init, back up files and a dump, list, restore and compare, forget and prune. */
async function exerciseRepository(env: Record<string, string>, restoreDir: string): Promise<void> {
  const tree = writeTree();
  const init = resticMessages(await resticOk(env, ['init', '--json']))[0]!;
  expect(init).toMatchObject({ message_type: 'initialized', repository: env.RESTIC_REPOSITORY });

  const first = resticSummary(await resticOk(env, ['backup', '--json', '--host', 'node-1', '--tag', 'files', '/data/files']));
  expect(first).toMatchObject({ files_new: Object.keys(tree).length, total_bytes_processed: Object.values(tree).reduce((n, b) => n + b.length, 0) });
  expect(first.snapshot_id).toMatch(/^[0-9a-f]{64}$/);

  const dump = resticSummary(
    await resticOk(env, [
      'backup',
      '--json',
      '--host',
      'node-1',
      '--tag',
      'database',
      '--stdin-filename',
      'database.sql',
      '--stdin-from-command',
      '--',
      'sh',
      '-c',
      DUMP_COMMAND,
    ]),
  );
  expect(dump).toMatchObject({ files_new: 1, total_bytes_processed: Buffer.byteLength(dumpText) });

  // a second files backup after a change: only the change is stored again (deduplication)
  fs.writeFileSync(path.join(dirs.files, 'index.php'), "<?php\n// changed\nrequire __DIR__ . '/wp-blog-header.php';\n");
  const second = resticSummary(await resticOk(env, ['backup', '--json', '--host', 'node-1', '--tag', 'files', '/data/files']));
  expect(second).toMatchObject({ files_new: 0, files_changed: 1, files_unmodified: Object.keys(tree).length - 1 });
  expect(second.data_added).toBeLessThan(10_000);

  const snapshots = JSON.parse(await resticOk(env, ['snapshots', '--json'])) as Array<Record<string, any>>;
  expect(snapshots.map((s) => [s.id, s.tags, s.paths, s.hostname])).toEqual([
    [first.snapshot_id, ['files'], ['/data/files'], 'node-1'],
    [dump.snapshot_id, ['database'], ['/database.sql'], 'node-1'],
    [second.snapshot_id, ['files'], ['/data/files'], 'node-1'],
  ]);

  // the first snapshot restored byte for byte (the change came later), the dump read back as a stream
  await resticOk(env, ['restore', first.snapshot_id, '--target', `/restore/${path.basename(restoreDir)}`, '--json']);
  for (const [file, bytes] of Object.entries(tree)) {
    expect(fs.readFileSync(path.join(restoreDir, 'data/files', file)).equals(bytes), file).toBe(true);
  }
  expect(await resticOk(env, ['dump', dump.snapshot_id, '/database.sql'])).toBe(dumpText);

  // retention: keep the last snapshot of each group (host + paths), prune what nothing references
  const forget = JSON.parse(await resticOk(env, ['forget', '--keep-last', '1', '--prune', '--json']).then((out) => out.split('\n')[0]!)) as Array<
    Record<string, any>
  >;
  expect(forget.flatMap((group) => (group.remove ?? []).map((s: Record<string, any>) => s.id))).toEqual([first.snapshot_id]);
  const kept = JSON.parse(await resticOk(env, ['snapshots', '--json'])) as Array<Record<string, any>>;
  expect(kept.map((s) => s.id).sort()).toEqual([dump.snapshot_id, second.snapshot_id].sort());
  const check = await resticExec(env, ['check', '--read-data']);
  expect(check.exit_code, check.stderr).toBe(0);
  expect(check.stdout).toContain('no errors were found');
}

describe('the backup image', () => {
  it('runs restic 0.18 and the MariaDB client', async () => {
    const version = await execResult(container, ['restic', 'version', '--json']);
    expect(version.exit_code).toBe(0);
    expect(JSON.parse(version.stdout)).toMatchObject({ message_type: 'version', version: expect.stringMatching(/^0\.18\./) });
    const dump = await execResult(container, ['mariadb-dump', '--version']);
    expect(dump).toMatchObject({ exit_code: 0, stdout: expect.stringMatching(/MariaDB/) });
    const tools = await execResult(container, ['sh', '-c', 'zstd --version && tar --version']);
    expect(tools.exit_code).toBe(0);
  });

  it('backs up, restores and prunes a repository in a local directory', async () => {
    await exerciseRepository({ RESTIC_REPOSITORY: '/repo', RESTIC_PASSWORD: PASSWORD }, path.join(dirs.restore, 'local'));
    // what restic writes on the node's disk is encrypted: no file name or content in the clear
    const stored = fs.readdirSync(dirs.repo, { recursive: true }).map(String);
    expect(stored).toContain('config');
    expect(stored.some((name) => name.includes('photo') || name.includes('index.php'))).toBe(false);
  }, 120_000);

  it('backs up, restores and prunes a repository in S3-compatible storage', async () => {
    const bucket = await s3.bucket(`backups-${run}`);
    await exerciseRepository(
      {
        RESTIC_REPOSITORY: `s3:${s3.endpoint}/${bucket}`,
        RESTIC_PASSWORD: PASSWORD,
        RESTIC_CACERT: '/etc/berth/s3-ca.pem',
        AWS_ACCESS_KEY_ID: s3.accessKeyId,
        AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
      },
      path.join(dirs.restore, 's3'),
    );
  }, 180_000);

  it('streams a snapshot as a tar.zst, the download format', async () => {
    const env = { RESTIC_REPOSITORY: '/repo', RESTIC_PASSWORD: PASSWORD };
    const listing = await execResult(
      container,
      ['sh', '-c', 'set -o pipefail; restic dump --archive tar --path /data/files latest /data/files | zstd -q -c | zstd -d -c | tar -t'],
      env,
    );
    expect(listing.exit_code, listing.stderr).toBe(0);
    expect(listing.stdout.split('\n')).toEqual(expect.arrayContaining(['data/files/index.php', 'data/files/wp-content/uploads/2026/11/photo.jpg']));
  }, 60_000);
});

describe('the backup image when something is wrong', () => {
  it('refuses a wrong repository password (exit 12)', async () => {
    const answer = await resticExec({ RESTIC_REPOSITORY: '/repo', RESTIC_PASSWORD: 'not the password' }, ['snapshots', '--json']);
    expect(answer.exit_code).toBe(12);
    expect(answer.stderr).toContain('wrong password or no key found');
  });

  it('stores no snapshot when the dump command fails', async () => {
    const env = { RESTIC_REPOSITORY: '/repo', RESTIC_PASSWORD: PASSWORD };
    const before = JSON.parse(await resticOk(env, ['snapshots', '--json'])) as unknown[];
    // restic forwards the command's stderr ("subprocess sh: ...") only sometimes (it races the exit),
    // so the command keeps its own in a file the caller reads after a failure
    const failingDump = 'exec 2>/tmp/dump.err; echo "-- partial dump"; echo "mariadb-dump: Got error: 2002: Can\'t connect" >&2; exit 2';
    const answer = await resticExec(env, ['backup', '--json', '--stdin-filename', 'database.sql', '--stdin-from-command', '--', 'sh', '-c', failingDump]);
    expect(answer.exit_code).toBe(1);
    expect(resticMessages(answer.stderr).at(-1)).toMatchObject({
      message_type: 'exit_error',
      message: 'Fatal: unable to save snapshot: failed to save /database.sql: Fatal: command failed: exit status 2',
    });
    expect((await execResult(container, ['cat', '/tmp/dump.err'])).stdout).toBe("mariadb-dump: Got error: 2002: Can't connect\n");
    expect(JSON.parse(await resticOk(env, ['snapshots', '--json']))).toHaveLength(before.length);
  }, 60_000);

  it('refuses S3 credentials the server does not know', async () => {
    const bucket = await s3.bucket(`denied-${run}`);
    const answer = await execResult(container, ['timeout', '20', 'restic', 'init', '--json'], {
      RESTIC_REPOSITORY: `s3:${s3.endpoint}/${bucket}`,
      RESTIC_PASSWORD: PASSWORD,
      RESTIC_CACERT: '/etc/berth/s3-ca.pem',
      AWS_ACCESS_KEY_ID: 'WRONG',
      AWS_SECRET_ACCESS_KEY: 'WRONG',
    });
    expect(answer.exit_code).toBe(1);
    expect(resticMessages(answer.stderr).at(-1)).toMatchObject({
      message_type: 'exit_error',
      message: expect.stringContaining('The AWS Access Key Id you provided does not exist in our records'),
    });
  }, 60_000);

  it('keeps retrying an unreachable S3 endpoint, so the caller bounds it with a deadline', async () => {
    // restic 0.18 retries a backend error for up to 15 minutes (not configurable): `timeout` ends it
    const closed = s3.endpoint.replace(/:\d+$/, ':1');
    const answer = await execResult(container, ['timeout', '6', 'restic', 'snapshots', '--json'], {
      RESTIC_REPOSITORY: `s3:${closed}/backups`,
      RESTIC_PASSWORD: PASSWORD,
      RESTIC_CACERT: '/etc/berth/s3-ca.pem',
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
    });
    expect(answer.exit_code).toBe(124);
    expect(answer.stderr).toContain('connect: connection refused');
    expect(answer.stderr).toMatch(/unable to open config file: context canceled/);
  }, 60_000);
});
