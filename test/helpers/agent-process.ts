import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export type AgentLogLine = { level: number; msg: string; [key: string]: unknown };

export type AgentProcess = {
  child: ChildProcess;
  pid: number;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Its JSON log lines so far. */
  logs(): AgentLogLine[];
  /** Resolves with the first log line that matches, or rejects after `timeoutMs` with the output. */
  waitForLog(match: (line: AgentLogLine) => boolean, timeoutMs?: number): Promise<AgentLogLine>;
  exited: Promise<number | null>;
};

/**
 * The real agent as its own process (`node agent/main.ts`, or the bundle), the way `npm run agent`
 * starts it. Pass AGENT_CONFIG (a file written by the test) so a config file this machine might have
 * at the default path never leaks in.
 */
export function spawnAgent(options: { env: Record<string, string>; entry?: string; nodeArgs?: string[] }): AgentProcess {
  const entry = path.resolve(options.entry ?? 'agent/main.ts');
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), entry], {
    env: {
      PATH: process.env.PATH ?? '',
      AGENT_LOG_LEVEL: 'debug',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const logs = () =>
    output.split('\n').flatMap((line) => {
      try {
        return line.startsWith('{') ? [JSON.parse(line) as AgentLogLine] : [];
      } catch {
        return [];
      }
    });
  return {
    child,
    pid: child.pid!,
    output: () => output,
    logs,
    exited,
    async waitForLog(match, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = logs().find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`the agent did not log what was expected within ${timeoutMs} ms:\n${output}`);
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`the agent exited (${child.exitCode ?? child.signalCode}) before logging what was expected:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}
