import { spawn } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.ts';
import { testPebble } from './runtime-peers.ts';

export type Pebble = {
  directoryUrl: string;
  caCertificatePath: string;
  /** The root its certificates chain to (new at every start): what a client trusts to check them like a browser would. */
  issuingRoot(): Promise<string>;
  stop(): Promise<void>;
};

/**
 * A Pebble ACME server of the test's own: HTTP-01 validated on `httpPort` (the test node's edge),
 * names resolved through `dnsServer` (the test PowerDNS). No sleeps, no nonce rejections, no reused
 * authorizations (every order is validated afresh): only
 * what the protocol needs.
 */
export async function startPebble(options: { httpPort: number; dnsServer: string }): Promise<Pebble> {
  const peer = testPebble();
  const [listen, management, tlsPort] = [await freePort(), await freePort(), await freePort()];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-pebble-'));
  const config = path.join(dir, 'pebble.json');
  fs.writeFileSync(
    config,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${listen}`,
        managementListenAddress: `127.0.0.1:${management}`,
        certificate: peer.certificatePath,
        privateKey: peer.keyPath,
        httpPort: options.httpPort,
        tlsPort,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
      },
    }),
  );
  const child = spawn(peer.binary, ['-config', config, '-dnsserver', options.dnsServer], {
    env: { ...process.env, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0', PEBBLE_AUTHZREUSE: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const directoryUrl = `https://127.0.0.1:${listen}/dir`;
  const ca = fs.readFileSync(peer.certificatePath);
  const deadline = Date.now() + 20_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      https
        .get(directoryUrl, { ca }, (response) => {
          response.resume();
          resolve(response.statusCode === 200);
        })
        .on('error', () => resolve(false));
    });
    if (up) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`Pebble did not start: ${output.slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    directoryUrl,
    caCertificatePath: peer.certificatePath,
    issuingRoot: () =>
      new Promise<string>((resolve, reject) => {
        https
          .get(`https://127.0.0.1:${management}/roots/0`, { ca }, (response) => {
            let pem = '';
            response.on('data', (chunk: Buffer) => (pem += chunk.toString()));
            response.on('end', () => (response.statusCode === 200 ? resolve(pem) : reject(new Error(`Pebble's root: ${response.statusCode}`))));
          })
          .on('error', reject);
      }),
    async stop() {
      child.kill('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
