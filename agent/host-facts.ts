import fs from 'node:fs';
import os from 'node:os';
import type { HostFacts } from '../shared/agent-protocol/protocol.ts';
import { dockerVersion, type Docker } from './runtime/docker.ts';

/** What the agent tells the control plane about its host (at enrollment, and for runtime.info). */
export async function hostFacts(docker: Docker): Promise<HostFacts> {
  return { hostname: os.hostname().slice(0, 255), os: osName().slice(0, 200), arch: os.machine().slice(0, 50), docker: await dockerVersion(docker) };
}

/** PRETTY_NAME from /etc/os-release, e.g. "Debian GNU/Linux 12 (bookworm)". */
export function osName(osRelease: string | null = readOsRelease()): string {
  const fields = new Map<string, string>();
  for (const line of (osRelease ?? '').split('\n')) {
    const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (match) fields.set(match[1]!, match[2]!.replace(/^(["'])(.*)\1$/, '$2'));
  }
  return fields.get('PRETTY_NAME') ?? ([fields.get('NAME'), fields.get('VERSION')].filter(Boolean).join(' ') || `${os.type()} ${os.release()}`);
}

function readOsRelease(): string | null {
  for (const file of ['/etc/os-release', '/usr/lib/os-release']) {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      // next
    }
  }
  return null;
}
