import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../../agent/commands/registry.ts';
import { EXEC_TAIL_BYTES } from '../../../agent/runtime/exec.ts';
import { metadataTableName, nft, reconcileMetadataBlocks } from '../../../agent/runtime/metadata-block.ts';
import { commandHarness } from '../../helpers/command-harness.ts';
import { dockerSocket, testBaseImage } from '../../helpers/runtime-peers.ts';

/**
 * Every command kind against a real Docker Engine API (podman's, from ops/), the way the agent runs
 * them: payload parsed by its schema, result checked against the protocol's result schema.
 */
const docker = new Docker({ socketPath: dockerSocket() });
const image = testBaseImage();
const nodeId = randomUUID();
const suffix = randomBytes(4).toString('hex');
const named = (base: string) => `berth-test-${base}-${suffix}`;
let dataDir: string;
let outside: string;
const { logs, context, run, failure } = commandHarness({ docker, nodeId, dataDir: () => dataDir });

const ownedBy = { label: [`berth.node=${nodeId}`] };

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-agent-data-'));
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-agent-outside-'));
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'not yours');
});

afterAll(async () => {
  const containers = await docker.listContainers({ all: true, filters: ownedBy });
  const strangers = await docker.listContainers({ all: true, filters: { label: [`berth.test=${suffix}`] } });
  await Promise.all([...containers, ...strangers].map((container) => docker.getContainer(container.Id).remove({ force: true })));
  const networks = await docker.listNetworks({ filters: ownedBy });
  await Promise.all(networks.map((network) => docker.getNetwork(network.Id).remove()));
  // as the agent does: the tables of networks that are gone go too
  await reconcileMetadataBlocks(docker, nodeId);
  const volumes = (await docker.listVolumes({ filters: ownedBy })).Volumes ?? [];
  await Promise.all(volumes.map((volume) => docker.getVolume(volume.Name).remove()));
  await docker
    .getNetwork(named('stranger-net'))
    .remove()
    .catch(() => {});
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

describe('runtime.info and image.ensure', () => {
  it('reports the host and the engine', async () => {
    const info = await run('runtime.info', {});
    expect(info.hostname).toBe(os.hostname());
    expect(info.arch).toBe(os.machine());
    expect(info.docker.version).toMatch(/\d/);
    expect(info.docker.api_version).toMatch(/^\d+\.\d+/);
  });

  it('finds a present image and refuses to pull a missing one unless pulling is allowed', async () => {
    const present = await run('image.ensure', { image });
    expect(present.id).toMatch(/^(sha256:)?[0-9a-f]{64}$/);
    const missing = await failure('image.ensure', { image: `localhost/berth/missing:${suffix}` });
    expect(missing.permanent).toBe(true);
    expect(missing.message).toMatch(/not present on the node.*AGENT_ALLOW_PULL/);
  });
});

describe('payloads', () => {
  it('fails for good on an unknown kind or a payload its schema refuses, before touching anything', async () => {
    expect((await failure('container.teleport', {})).message).toMatch(/unknown command kind/);
    const invalid = await failure('network.ensure', { name: '../etc' });
    expect(invalid.permanent).toBe(true);
    expect(invalid.message).toMatch(/invalid network.ensure payload: name/);
  });
});

describe('network.ensure and volume.ensure', () => {
  it('creates a labelled network once; the second time it is found', async () => {
    const first = await run('network.ensure', { name: named('net'), labels: { 'berth.site': 'site-1' } });
    const second = await run('network.ensure', { name: named('net') });
    expect(first.created).toBe(true);
    expect(second).toEqual({ id: first.id, created: false });
    const info = await docker.getNetwork(named('net')).inspect();
    expect(info.Labels).toMatchObject({ 'berth.managed': 'true', 'berth.node': nodeId, 'berth.site': 'site-1' });
    // with the host's cloud metadata block for it (test/integration/isolation/cloud-metadata.test.ts tries it)
    const table = await nft(['list', 'table', 'inet', metadataTableName(named('net'))]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain('ip daddr 169.254.0.0/16 counter');
  });

  it('refuses a network of the same name that it did not create', async () => {
    await docker.createNetwork({ Name: named('stranger-net') });
    const refused = await failure('network.ensure', { name: named('stranger-net') });
    expect(refused.permanent).toBe(true);
    expect(refused.message).toMatch(/not created by this agent/);
  });

  it('creates a labelled volume once', async () => {
    expect(await run('volume.ensure', { name: named('vol') })).toEqual({ name: named('vol'), created: true });
    expect(await run('volume.ensure', { name: named('vol') })).toEqual({ name: named('vol'), created: false });
    expect((await docker.getVolume(named('vol')).inspect()).Labels).toMatchObject({ 'berth.managed': 'true', 'berth.node': nodeId });
  });
});

describe('directories and files inside the data directory', () => {
  it('ensures and removes a directory, idempotently, with its mode', async () => {
    expect(await run('directory.ensure', { path: 'sites/a/files', mode: 0o750 })).toEqual({ path: 'sites/a/files', created: true });
    expect(await run('directory.ensure', { path: 'sites/a/files' })).toEqual({ path: 'sites/a/files', created: false });
    expect(fs.statSync(path.join(dataDir, 'sites/a/files')).mode & 0o777).toBe(0o750);
    expect(await run('directory.remove', { path: 'sites/a' })).toEqual({ removed: true });
    expect(await run('directory.remove', { path: 'sites/a' })).toEqual({ removed: false });
    expect(fs.existsSync(path.join(dataDir, 'sites/a'))).toBe(false);
  });

  it('renames a directory once: done already is renamed: false, both present or a link on the way is refused', async () => {
    fs.mkdirSync(path.join(dataDir, 'sites/r/restore-1/data/files/wp-includes'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'sites/r/restore-1/data/files/wp-includes/version.php'), 'restored');
    expect(await run('directory.rename', { from: 'sites/r/restore-1/data/files', to: 'sites/r/files' })).toEqual({ renamed: true });
    expect(fs.readFileSync(path.join(dataDir, 'sites/r/files/wp-includes/version.php'), 'utf8')).toBe('restored');
    expect(await run('directory.rename', { from: 'sites/r/restore-1/data/files', to: 'sites/r/files' })).toEqual({ renamed: false });
    fs.mkdirSync(path.join(dataDir, 'sites/r/other'));
    expect((await failure('directory.rename', { from: 'sites/r/other', to: 'sites/r/files' })).message).toMatch(/exists already/);
    expect((await failure('directory.rename', { from: 'sites/r/missing', to: 'sites/r/new' })).message).toMatch(/does not exist/);
    fs.symlinkSync(outside, path.join(dataDir, 'sites/r/out'));
    expect((await failure('directory.rename', { from: 'sites/r/other', to: 'sites/r/out/planted' })).message).toMatch(/symlink/);
    expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
  });

  it('writes files atomically with their mode and reads them back, truncated at max_bytes', async () => {
    const content = Buffer.from('<?php echo "hello";\n');
    expect(
      await run('files.put', {
        files: [
          { path: 'sites/b/index.php', content_base64: content.toString('base64'), mode: 0o640 },
          { path: 'top.txt', content_base64: 'eA==' },
        ],
      }),
    ).toEqual({ written: 2 });
    expect(fs.statSync(path.join(dataDir, 'sites/b/index.php')).mode & 0o777).toBe(0o640);
    expect(await run('files.get', { path: 'sites/b/index.php' })).toEqual({ content_base64: content.toString('base64'), truncated: false });
    expect(await run('files.get', { path: 'sites/b/index.php', max_bytes: 5 })).toEqual({
      content_base64: content.subarray(0, 5).toString('base64'),
      truncated: true,
    });
    expect(fs.readdirSync(path.join(dataDir, 'sites/b'))).toEqual(['index.php']); // no temp file left
    expect((await failure('files.get', { path: 'sites/b/missing.txt' })).message).toMatch(/does not exist/);
  });

  it("never follows a symlink, even one that stays inside (one environment's link to another's files)", async () => {
    fs.mkdirSync(path.join(dataDir, 'sites/env-b/files'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'sites/env-b/files/wp-config.php'), 'secrets of b');
    fs.mkdirSync(path.join(dataDir, 'sites/env-a/files'), { recursive: true });
    fs.symlinkSync(path.join(dataDir, 'sites/env-b/files'), path.join(dataDir, 'sites/env-a/files/b'));
    fs.symlinkSync('../../env-b/files/wp-config.php', path.join(dataDir, 'sites/env-a/files/config-of-b.php'));
    for (const [kind, payload] of [
      ['files.get', { path: 'sites/env-a/files/b/wp-config.php' }],
      ['files.get', { path: 'sites/env-a/files/config-of-b.php' }],
      ['files.put', { files: [{ path: 'sites/env-a/files/b/planted.php', content_base64: 'eA==' }] }],
      ['directory.ensure', { path: 'sites/env-a/files/b/sub' }],
      ['directory.remove', { path: 'sites/env-a/files/b/wp-config.php' }],
    ] as const) {
      const refused = await failure(kind, payload);
      expect(refused.permanent, `${kind} ${JSON.stringify(payload)}`).toBe(true);
      expect(refused.message, `${kind} ${JSON.stringify(payload)}`).toMatch(/symlink, and the agent never follows one/);
    }
    expect(fs.readdirSync(path.join(dataDir, 'sites/env-b/files'))).toEqual(['wp-config.php']);
    expect(fs.readFileSync(path.join(dataDir, 'sites/env-b/files/wp-config.php'), 'utf8')).toBe('secrets of b');
  });

  it("refuses paths that escape: .., absolute, symlinks out, the data directory itself, the agent's own state", async () => {
    fs.symlinkSync(outside, path.join(dataDir, 'escape'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dataDir, 'secret-link'));
    const refusals = [
      ['directory.ensure', { path: '../x' }, /without \.\./],
      ['directory.ensure', { path: '/etc/berth' }, /relative to the data directory/],
      ['directory.ensure', { path: 'escape/sub' }, /"escape" refused: it is or goes through a symlink/],
      ['files.get', { path: 'escape/secret.txt' }, /"escape" refused: it is or goes through a symlink/],
      ['files.get', { path: 'secret-link' }, /"secret-link" refused: it is or goes through a symlink/],
      ['files.put', { files: [{ path: 'escape/planted.txt', content_base64: 'eA==' }] }, /"escape" refused: it is or goes through a symlink/],
      ['directory.remove', { path: 'escape/..' }, /without \.\./],
      ['directory.remove', { path: '.' }, /data directory itself/],
      ['directory.remove', { path: 'journal' }, /agent's own state/],
      ['files.put', { files: [{ path: 'keys/agent-ed25519.pem', content_base64: 'eA==' }] }, /agent's own state/],
    ] as const;
    for (const [kind, payload, message] of refusals) {
      const refused = await failure(kind, payload);
      expect(refused.permanent, `${kind} ${JSON.stringify(payload)}`).toBe(true);
      expect(refused.message, `${kind} ${JSON.stringify(payload)}`).toMatch(message);
    }
    expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
    // replacing a symlink with a file writes the file in place of the link, never through it
    expect(await run('files.put', { files: [{ path: 'secret-link', content_base64: 'eA==' }] })).toEqual({ written: 1 });
    expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('not yours');
    // removing a link removes the link only
    expect(await run('directory.remove', { path: 'escape' })).toEqual({ removed: true });
    expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
  });
});

describe('containers', () => {
  const site = named('site');
  const spec = () => ({
    name: site,
    image,
    labels: { 'berth.site': 'site-1', 'berth.environment': 'prod', 'berth.role': 'php' },
    env: { SITE: 'one' },
    mounts: [
      { type: 'bind' as const, source: 'sites/c/files', target: '/srv/files' },
      { type: 'volume' as const, source: named('vol'), target: '/srv/volume' },
    ],
    memory_bytes: 256 * 1024 * 1024,
  });

  it('creates a labelled container with its mounts once, starts it, and finds it the second time', async () => {
    await run('volume.ensure', { name: named('vol') });
    const first = await run('container.ensure', spec());
    expect(first).toMatchObject({ created: true, recreated: false, running: true });
    const second = await run('container.ensure', spec());
    expect(second).toEqual({ id: first.id, created: false, recreated: false, running: true });

    const info = await docker.getContainer(site).inspect();
    expect(info.Config.Labels).toMatchObject({
      'berth.managed': 'true',
      'berth.node': nodeId,
      'berth.site': 'site-1',
      'berth.environment': 'prod',
      'berth.role': 'php',
    });
    expect(info.Config.Labels['berth.spec-hash']).toMatch(/^[0-9a-f]{32}$/);
    expect(info.Config.Env).toContain('SITE=one');
    expect(info.HostConfig.Memory).toBe(256 * 1024 * 1024);
    // the bind source was created inside the data directory, and the container sees files put there
    await run('files.put', { files: [{ path: 'sites/c/files/hello.txt', content_base64: Buffer.from('from the host').toString('base64') }] });
    const read = await run('container.exec', { name: site, cmd: ['cat', '/srv/files/hello.txt'] });
    expect(read).toEqual({ exit_code: 0, stdout: 'from the host', stderr: '' });
  });

  it('recreates the container when its spec changes, and leaves it alone when only `start` differs', async () => {
    const before = await docker.getContainer(site).inspect();
    const changed = await run('container.ensure', { ...spec(), env: { SITE: 'two' } });
    expect(changed).toMatchObject({ created: true, recreated: true, running: true });
    expect(changed.id).not.toBe(before.Id);
    expect((await docker.getContainer(site).inspect()).Config.Env).toContain('SITE=two');
    expect(logs.some((entry) => entry.line.includes(`the spec of ${site} changed`))).toBe(true);
    const same = await run('container.ensure', { ...spec(), env: { SITE: 'two' }, start: false });
    expect(same).toEqual({ id: changed.id, created: false, recreated: false, running: true });
  });

  it('writes the addresses of `hosts` into /etc/hosts; a keep_address container keeps its address when recreated, and its peers follow a move', async () => {
    const network = named('hosts-net');
    await run('network.ensure', { name: network });
    const database = { name: named('db'), image, labels: { 'berth.role': 'db' }, network, keep_address: true, cmd: ['sleep', 'infinity'] };
    const client = { name: named('client'), image, labels: { 'berth.role': 'client' }, network, hosts: [database.name], cmd: ['sleep', 'infinity'] };
    await run('container.ensure', database);
    // a third container first, so that a recreated database would not get its old address back by chance
    await run('container.ensure', { ...database, name: named('filler'), keep_address: false });
    const address = (await docker.getContainer(database.name).inspect()).NetworkSettings.Networks[network]!.IPAddress;
    expect(address).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const made = await run('container.ensure', client);
    const hosts = await run('container.exec', { name: client.name, cmd: ['getent', 'hosts', database.name] });
    expect(hosts.stdout.trim().split(/\s+/)).toEqual([address, database.name]);
    expect((await run('container.exec', { name: client.name, cmd: ['cat', '/etc/hosts'] })).stdout).toContain(`${address}\t${database.name}`);

    const recreated = await run('container.ensure', { ...database, env: { CHANGED: '1' } });
    expect(recreated.recreated).toBe(true);
    expect((await docker.getContainer(database.name).inspect()).NetworkSettings.Networks[network]!.IPAddress).toBe(address);
    expect(await run('container.ensure', client)).toMatchObject({ id: made.id, created: false });

    // removed and made again without keeping: a new address, and the client is made anew with it
    await run('container.remove', { name: database.name });
    await run('container.ensure', { ...database, name: named('filler-2'), keep_address: false });
    await run('container.ensure', database);
    const moved = (await docker.getContainer(database.name).inspect()).NetworkSettings.Networks[network]!.IPAddress;
    expect(moved).not.toBe(address);
    expect(await run('container.ensure', client)).toMatchObject({ recreated: true });
    expect((await run('container.exec', { name: client.name, cmd: ['getent', 'hosts', database.name] })).stdout.trim().split(/\s+/)).toEqual([
      moved,
      database.name,
    ]);
    const lost = await failure('container.ensure', { ...client, hosts: [named('nowhere')] });
    expect(lost.message).toMatch(/has no address on/);
  });

  it('keeps the running container when the changed spec names an image the node lacks', async () => {
    const before = await docker.getContainer(site).inspect();
    const refused = await failure('container.ensure', { ...spec(), env: { SITE: 'two' }, image: 'localhost/berth/no-such-image:1' });
    expect(refused.message).toMatch(/no-such-image/);
    const after = await docker.getContainer(site).inspect();
    expect(after.Id).toBe(before.Id);
    expect(after.State.Running).toBe(true);
  });

  it('execs with separate stdout and stderr, fails on an exit code not in ok_exit_codes with the stderr tail', async () => {
    const both = await run('container.exec', { name: site, cmd: ['sh', '-c', 'echo out; echo err >&2; echo "$GREETING"'], env: { GREETING: 'hi' } });
    expect(both).toEqual({ exit_code: 0, stdout: 'out\nhi\n', stderr: 'err\n' });
    expect(logs).toEqual(
      expect.arrayContaining([
        { stream: 'stdout', line: 'out' },
        { stream: 'stderr', line: 'err' },
      ]),
    );

    const failed = await failure('container.exec', { name: site, cmd: ['sh', '-c', 'echo partial; echo "broken: no such table" >&2; exit 3'] });
    expect(failed.exitCode).toBe(3);
    expect(failed.stderrTail).toBe('broken: no such table\n');
    expect(failed.message).toMatch(/exited with 3/);

    expect(await run('container.exec', { name: site, cmd: ['sh', '-c', 'exit 3'], ok_exit_codes: [0, 3] })).toEqual({ exit_code: 3, stdout: '', stderr: '' });
    const user = await run('container.exec', { name: site, cmd: ['sh', '-c', 'id -u; pwd'], user: 'nobody', workdir: '/tmp' });
    expect(user.stdout).toBe('65534\n/tmp\n');
  });

  it('keeps only the tail of a large output', async () => {
    const big = await run('container.exec', { name: site, cmd: ['sh', '-c', 'seq 1 100000'] });
    expect(Buffer.byteLength(big.stdout)).toBeLessThanOrEqual(EXEC_TAIL_BYTES);
    expect(big.stdout.endsWith('99999\n100000\n')).toBe(true);
  });

  it('reports stats', async () => {
    const stats = await run('container.stats', { name: site });
    expect(stats.cpu_percent).toBeGreaterThanOrEqual(0);
    expect(stats.memory_bytes).toBeGreaterThan(0);
    expect(stats.memory_limit_bytes).toBeGreaterThan(0);
  });

  it('lists what it owns by labels', async () => {
    const all = await run('runtime.list', {});
    expect(all.containers.map((container) => container.name)).toContain(site);
    expect(all.networks.map((network) => network.name)).toContain(named('net'));
    expect(all.volumes.map((volume) => volume.name)).toContain(named('vol'));
    const narrowed = await run('runtime.list', { labels: { 'berth.environment': 'stage' } });
    expect(narrowed.containers).toEqual([]);
    const prod = await run('runtime.list', { labels: { 'berth.environment': 'prod' } });
    expect(prod.containers).toEqual([expect.objectContaining({ name: site, state: 'running', labels: expect.objectContaining({ 'berth.role': 'php' }) })]);
  });

  it('stops and removes idempotently', async () => {
    expect(await run('container.stop', { name: site, timeout_seconds: 2 })).toEqual({ stopped: true });
    expect(await run('container.stop', { name: site })).toEqual({ stopped: false });
    expect((await failure('container.exec', { name: site, cmd: ['true'] })).message).toMatch(/not running/);
    expect(await run('container.ensure', { ...spec(), env: { SITE: 'two' } })).toMatchObject({ created: false, running: true });
    expect(await run('container.remove', { name: site })).toEqual({ removed: true });
    expect(await run('container.remove', { name: site })).toEqual({ removed: false });
    expect(await run('container.stop', { name: site })).toEqual({ stopped: false });
    expect((await failure('container.exec', { name: site, cmd: ['true'] })).permanent).toBe(true);
  });

  it('never touches a container it did not create', async () => {
    const stranger = named('stranger');
    await docker.createContainer({ name: stranger, Image: image, Labels: { 'berth.test': suffix } });
    for (const [kind, payload] of [
      ['container.ensure', { name: stranger, image }],
      ['container.stop', { name: stranger }],
      ['container.remove', { name: stranger }],
      ['container.exec', { name: stranger, cmd: ['true'] }],
    ] as const) {
      const refused = await failure(kind, payload);
      expect(refused.permanent).toBe(true);
      expect(refused.message).toMatch(/not created by this agent/);
    }
    expect((await docker.getContainer(stranger).inspect()).Name).toBe(`/${stranger}`);
  });

  it('stops waiting for an exec when the command is aborted', async () => {
    await run('container.ensure', { name: named('sleeper'), image });
    const controller = new AbortController();
    const pending = executeCommand('container.exec', { name: named('sleeper'), cmd: ['sleep', '30'] }, context({ signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('deadline exceeded')), 300);
    await expect(pending).rejects.toThrow('deadline exceeded');
  });
});
