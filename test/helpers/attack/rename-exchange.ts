import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const source = path.join(import.meta.dirname, 'rename-exchange.c');

/**
 * The swapper of rename-exchange.c, built static (so it runs in any site image) once per content of
 * its source; the path of the binary. It needs the machine's C compiler and static libc (gcc and
 * libc6-dev, which ops/ installs with the test tools): without them the test fails here, naming them.
 */
export function renameExchangeBinary(): string {
  const hash = createHash('sha256').update(fs.readFileSync(source)).digest('hex').slice(0, 12);
  const binary = path.join(os.tmpdir(), `berth-rename-exchange-${hash}`);
  if (fs.existsSync(binary)) return binary;
  const partial = `${binary}.${process.pid}`;
  try {
    execFileSync('gcc', ['-O2', '-static', '-o', partial, source], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    throw new Error(`building the tenant's swapper needs gcc and a static libc (Debian: gcc libc6-dev): ${(error as Error).message}`, { cause: error });
  }
  fs.renameSync(partial, binary);
  return binary;
}
