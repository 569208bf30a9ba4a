import fs from 'node:fs';

/** Replaced by the bundler (ops/build-agent.mjs) with the package version and commit. */
declare const __BERTH_AGENT_VERSION__: string | undefined;

function sourceVersion(): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string };
    return `${pkg.version ?? '0.0.0'}-dev`;
  } catch {
    return '0.0.0-dev';
  }
}

/** The agent's version as reported at enrollment and in every heartbeat (AGENT_VERSION overrides). */
export const AGENT_BUILD_VERSION: string = typeof __BERTH_AGENT_VERSION__ === 'string' ? __BERTH_AGENT_VERSION__ : sourceVersion();
