import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { PassThrough } from 'node:stream';
import Docker from 'dockerode';
import { Client, utils, type ConnectConfig } from 'ssh2';
import { afterAll, describe, expect, it } from 'vitest';
import { dockerSocket, testBaseImage, testSshd } from '../../helpers/runtime-peers.ts';

/** The peers ops/ sets up for the agent's tests answer the way the agent will use them. */
describe('Docker Engine API on DOCKER_SOCKET', () => {
  const docker = new Docker({ socketPath: dockerSocket() });
  const label = `ops-${randomBytes(4).toString('hex')}`;
  afterAll(async () => {
    const left = await docker.listContainers({ all: true, filters: { label: [`berth.test=${label}`] } });
    await Promise.all(left.map((c) => docker.getContainer(c.Id).remove({ force: true })));
  });

  it('runs a labelled container from the base image, execs in it, finds it by label and removes it', async () => {
    expect(String(await docker.ping())).toBe('OK');
    const container = await docker.createContainer({
      Image: testBaseImage(),
      Labels: { 'berth.test': label },
      HostConfig: { NetworkMode: 'none' },
    });
    await container.start();

    const exec = await container.exec({ Cmd: ['echo', 'hello from', label], AttachStdout: true, AttachStderr: true });
    const stream = await exec.start({ hijack: true, stdin: false });
    const stdout = new PassThrough();
    const chunks: Buffer[] = [];
    stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    docker.modem.demuxStream(stream, stdout, new PassThrough());
    await new Promise((resolve) => stream.on('end', resolve));
    expect(Buffer.concat(chunks).toString()).toBe(`hello from ${label}\n`);
    expect((await exec.inspect()).ExitCode).toBe(0);

    const found = await docker.listContainers({ filters: { label: [`berth.test=${label}`] } });
    expect(found.map((c) => c.Id)).toEqual([container.id]);
    expect(found[0]?.Labels['berth.test']).toBe(label);

    await container.remove({ force: true });
    expect(await docker.listContainers({ all: true, filters: { label: [`berth.test=${label}`] } })).toEqual([]);
  });
});

describe('the test sshd', () => {
  const sshd = testSshd();
  const hostKey = Buffer.from(sshd.hostPublicKey.split(' ')[1] ?? '', 'base64');

  /** Runs a command over SSH; rejects with the client's error when the login fails. */
  function run(config: Partial<ConnectConfig>, command: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const client = new Client();
      client
        .on('ready', () => {
          client.exec(command, (error, channel) => {
            if (error) return reject(error);
            let out = '';
            channel.on('data', (data: Buffer) => (out += data.toString()));
            channel.on('close', () => {
              client.end();
              resolve(out.trim());
            });
          });
        })
        .on('error', reject)
        .connect({
          host: sshd.host,
          port: sshd.port,
          readyTimeout: 10_000,
          hostVerifier: (key: Buffer) => key.equals(hostKey),
          ...config,
        });
    });
  }

  it('lets root in with the test key, and the user with its password', async () => {
    expect(await run({ username: 'root', privateKey: sshd.privateKey }, 'uname -m')).toBe(os.machine());
    expect(await run({ username: sshd.user, password: sshd.password }, 'id -un')).toBe(sshd.user);
  });

  it('refuses a wrong key and a wrong password', async () => {
    const stranger = utils.generateKeyPairSync('ed25519');
    await expect(run({ username: 'root', privateKey: stranger.private }, 'true')).rejects.toMatchObject({
      level: 'client-authentication',
    });
    await expect(run({ username: sshd.user, password: `${sshd.password}x` }, 'true')).rejects.toMatchObject({
      level: 'client-authentication',
    });
  });
});
