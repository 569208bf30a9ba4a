import { execFile } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import { dockerSocket, testStateDir } from './runtime-peers.ts';

/**
 * A real S3-protocol server for the tests: npm's s3rver, in this process, on a free port, its
 * objects in a temporary directory. It answers over HTTPS with a certificate made for this run,
 * because restic (minio-go) signs a PUT sent over plain HTTP with the aws-chunked streaming
 * signature, and s3rver stores such a body with its chunk headers instead of decoding it: `restic
 * init` then succeeds and every read of the key fails ("LoadRaw(<key/...>): invalid data
 * returned"). Over TLS minio-go sends the bytes as they are (UNSIGNED-PAYLOAD), as to a real S3.
 *
 * Containers reach it at the gateway of the engine's default bridge network (podman: 10.88.0.1,
 * also `host.containers.internal`): it listens on every interface because that bridge only exists
 * while a container uses it, and it drops connections from anywhere but loopback and private
 * (RFC 1918) addresses. restic in a container needs the certificate: mount `caCertPath` and set
 * RESTIC_CACERT (or `--cacert`).
 *
 * A node's containers (its backups among them) run on the node's own network (10.89.x), whose
 * gateway is another address: `hostEndpoint` names the server by `host.containers.internal`, which
 * podman resolves, in every container, to the gateway of that container's own network (measured with
 * podman 4.3, rootful; Docker needs `--add-host host.containers.internal:host-gateway` for the same).
 */
export interface TestS3Server {
  /** `https://<bridge gateway>:<port>`: the address for a container on the default bridge network. */
  endpoint: string;
  /** `https://host.containers.internal:<port>`: the address for a container on any bridge network (a node's own). */
  hostEndpoint: string;
  /** `https://127.0.0.1:<port>`: the address for this process. */
  localEndpoint: string;
  port: number;
  accessKeyId: string;
  secretAccessKey: string;
  /** The server's self-signed certificate (PEM), valid for the gateway, 127.0.0.1, host.containers.internal. */
  caCertPath: string;
  /** Creates a bucket (PUT /<name>); its name. */
  bucket(name: string): Promise<string>;
  stop(): Promise<void>;
}

interface S3rverOptions {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  vhostBuckets: boolean;
  key: Buffer;
  cert: Buffer;
}
interface S3rverInstance {
  run(): Promise<net.AddressInfo>;
  close(): Promise<void>;
  httpServer: net.Server;
}
// s3rver ships no types; the two calls used here
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: S3rverOptions) => S3rverInstance;

// s3rver's built-in account (lib/models/account.js); any other key is refused with InvalidAccessKeyId
const ACCESS_KEY_ID = 'S3RVER';
const SECRET_ACCESS_KEY = 'S3RVER';

/** The gateway of the engine's default bridge network ("bridge" in Docker's API, podman's "podman"). */
async function bridgeGateway(): Promise<string> {
  const network = (await new Docker({ socketPath: dockerSocket() }).getNetwork('bridge').inspect()) as {
    IPAM?: { Config?: Array<{ Gateway?: string }> };
  };
  const gateway = network.IPAM?.Config?.find((config) => config.Gateway && net.isIPv4(config.Gateway))?.Gateway;
  if (!gateway) throw new Error('The Docker Engine API names no IPv4 gateway for its "bridge" network: containers could not reach the S3 server');
  return gateway;
}

function fromPrivateAddress(address: string | undefined): boolean {
  const ip = address?.replace(/^::ffff:/, '') ?? '';
  if (ip === '::1') return true;
  const [a = -1, b = -1] = ip.split('.').map(Number);
  return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
}

function httpsRequest(url: string, method: string, ca: Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .request(url, { method, ca }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        response.on('error', reject);
      })
      .on('error', reject)
      .end();
  });
}

export async function startS3Server(): Promise<TestS3Server> {
  const gateway = await bridgeGateway();
  // under the test state directory: the engine mounts the certificate into containers from there
  fs.mkdirSync(testStateDir(), { recursive: true });
  const home = fs.mkdtempSync(path.join(testStateDir(), 's3-'));
  const caCertPath = path.join(home, 'cert.pem');
  const keyPath = path.join(home, 'key.pem');
  const directory = path.join(home, 'objects');
  try {
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-keyout',
      keyPath,
      '-out',
      caCertPath,
      '-subj',
      '/CN=berth-test-s3',
      '-addext',
      `subjectAltName=IP:${gateway},IP:127.0.0.1,DNS:host.containers.internal,DNS:localhost`,
    ]);
    fs.chmodSync(caCertPath, 0o644);
    fs.mkdirSync(directory);
    const ca = fs.readFileSync(caCertPath);
    // port 0: s3rver passes it to listen(), so the kernel picks a free port and no other run can race for it
    const server = new S3rver({ address: '0.0.0.0', port: 0, directory, silent: true, vhostBuckets: false, key: fs.readFileSync(keyPath), cert: ca });
    const { port } = await server.run();
    server.httpServer.on('connection', (socket: net.Socket) => {
      if (!fromPrivateAddress(socket.remoteAddress)) socket.destroy();
    });
    const localEndpoint = `https://127.0.0.1:${port}`;
    return {
      endpoint: `https://${gateway}:${port}`,
      hostEndpoint: `https://host.containers.internal:${port}`,
      localEndpoint,
      port,
      accessKeyId: ACCESS_KEY_ID,
      secretAccessKey: SECRET_ACCESS_KEY,
      caCertPath,
      async bucket(name) {
        // unsigned: s3rver treats a request without credentials as the owner's
        const answer = await httpsRequest(`${localEndpoint}/${encodeURIComponent(name)}`, 'PUT', ca);
        if (answer.status !== 200) throw new Error(`S3 server: creating bucket ${name} answered ${answer.status}: ${answer.body}`);
        return name;
      },
      async stop() {
        await server.close();
        fs.rmSync(home, { recursive: true, force: true });
      },
    };
  } catch (error) {
    fs.rmSync(home, { recursive: true, force: true });
    throw error;
  }
}
