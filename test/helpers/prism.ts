import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from './free-port.ts';

export type RunningPrism = { url: string; stop: () => Promise<void> };

/** The committed contract the SDKs are generated from. */
export const OPENAPI_SNAPSHOT = path.resolve('docs/openapi.json');

/**
 * A Prism mock of the committed OpenAPI snapshot on loopback. With `--errors`, a request that does
 * not match its operation (path, query, headers, body, credentials) is answered 4xx with the
 * violations in an `sl-violations` header, so an SDK call that reaches a 2xx was shaped as the
 * document says.
 */
export async function startPrism(): Promise<RunningPrism> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    path.resolve('node_modules/.bin/prism'),
    ['mock', OPENAPI_SNAPSHOT, '--host', '127.0.0.1', '--port', String(port), '--errors'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  const deadline = Date.now() + 60_000;
  while (!output.includes('Prism is listening')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`prism mock did not start (node_modules/.bin/prism from @stoplight/prism-cli):\n${output.slice(-2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: `http://127.0.0.1:${port}`, stop };
}
