import { spawn } from 'node:child_process';

export type ProgramRun = { code: number | null; stdout: string; stderr: string; output: string };

/**
 * Runs a program to its end as a user would: its exit code and what it printed (`output` is both
 * streams after the command line, for failure messages). `env` replaces the environment but for
 * PATH and HOME unless `inheritEnv`; `input` writes lines to its stdin while it runs.
 */
export function runProgram(
  command: string,
  args: string[],
  options: {
    cwd?: string;
    env?: Record<string, string | undefined>;
    inheritEnv?: boolean;
    input?: (write: (line: string) => void) => Promise<void>;
  } = {},
): Promise<ProgramRun> {
  const base = options.inheritEnv ? process.env : { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...base, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, output: `$ ${command} ${args.join(' ')}\n${stdout}${stderr}` }));
    if (options.input) options.input((line) => child.stdin.write(`${line}\n`)).then(() => child.stdin.end(), reject);
    else child.stdin.end();
  });
}
