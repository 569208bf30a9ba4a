import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../shared/logger.ts';

const buildScript = fileURLToPath(new URL('../ops/build-agent.mjs', import.meta.url));
const agentSource = fileURLToPath(new URL('../agent/main.ts', import.meta.url));

/**
 * What the local agent runs: the bundle nodes are given (AGENT_BUNDLE_PATH), rebuilt first when a
 * file its last build read changed (ops/build-agent.mjs --if-changed: a hash check, about 0.1 s), so
 * it never runs older code than the checkout's. The bundle idles at about half the memory of the
 * sources (no TypeScript stripper, one file). Where it cannot be built (no esbuild: a production
 * install without dev dependencies) an existing bundle is used as it is, and without one the sources.
 */
export function localAgentEntry(bundlePath: string, logger: Logger): string {
  try {
    execFileSync(process.execPath, [buildScript, '--if-changed', bundlePath], { stdio: ['ignore', 'ignore', 'pipe'] });
    return bundlePath;
  } catch (error) {
    const reason = ((error as { stderr?: Buffer }).stderr?.toString() || (error as Error).message).trim().split('\n').slice(-3).join(' ');
    if (fs.existsSync(bundlePath)) {
      logger.warn({ bundle: bundlePath, error: reason }, 'the agent bundle could not be rebuilt: the local agent runs the existing one');
      return bundlePath;
    }
    logger.warn({ bundle: bundlePath, error: reason }, 'the agent bundle could not be built: the local agent runs from source (more memory)');
    return agentSource;
  }
}
