import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const loadScript = path.join(import.meta.dirname, 'http-load.ts');

/** A free loopback port, to hand to a server started in another process. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Resolves once `port` accepts a connection (the server in the other process is listening). */
export async function waitForPort(port: number, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before listening on ${port}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing listened on ${port} within ${timeoutMs} ms`);
}

export type ServerProcess = { port: number; child: ChildProcess; cpuSeconds(): number; stop(): Promise<void> };

/** CPU time (user + system) a process has used so far, from /proc (Linux), in seconds. */
export function cpuSecondsOf(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ: 100)
}

/** Starts `node <args>` with `env`, its output appended to `logFile` (as a service's would be), and waits for `port`. */
export async function startServerProcess(args: string[], options: { port: number; env?: NodeJS.ProcessEnv; logFile: string }): Promise<ServerProcess> {
  const out = fs.openSync(options.logFile, 'a');
  const child = spawn(process.execPath, args, { env: options.env ?? process.env, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  await waitForPort(options.port, child);
  return {
    port: options.port,
    child,
    cpuSeconds: () => cpuSecondsOf(child.pid!),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(force);
    },
  };
}

export type LoadSpec = {
  port: number;
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  seconds: number;
  warmupSeconds?: number;
  concurrency: number;
  host?: string;
};
export type LoadResult = { requests: number; errors: number; seconds: number; rps: number; p50Ms: number; p99Ms: number; statuses: Record<string, number> };

/** Runs the load generator (test/bench/load/http-load.ts) in its own process and returns what it measured. */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const child = spawn(process.execPath, [loadScript, JSON.stringify({ host: '127.0.0.1', ...spec })], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the load generator exited with ${code}`);
  return JSON.parse(output.trim().split('\n').pop()!) as LoadResult;
}
