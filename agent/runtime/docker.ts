import Docker from 'dockerode';
import { LABELS } from '../../shared/agent-protocol/labels.ts';
import { CommandFailure } from '../commands/failure.ts';

export type { Docker };

/** The Docker Engine API on the configured unix socket (Docker, or podman's compatible service). */
export function createDocker(socketPath: string): Docker {
  return new Docker({ socketPath });
}

export function statusCodeOf(error: unknown): number | undefined {
  const code = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof code === 'number' ? code : undefined;
}

export const isNotFound = (error: unknown): boolean => statusCodeOf(error) === 404;
export const isConflict = (error: unknown): boolean => statusCodeOf(error) === 409;

/** The engine's message without dockerode's "(HTTP code 404) no such container -" prefix noise. */
export function engineMessage(error: unknown): string {
  const json = (error as { json?: { message?: unknown } } | null)?.json;
  if (json && typeof json.message === 'string') return json.message;
  return error instanceof Error ? error.message : String(error);
}

/** Labels on everything the agent creates: the caller's (site, environment, role), then ours, which win. */
export function ownedLabels(nodeId: string, extra: Record<string, string> = {}): Record<string, string> {
  return { ...extra, [LABELS.managed]: 'true', [LABELS.node]: nodeId };
}

export function isOwned(labels: Record<string, string> | null | undefined, nodeId: string): boolean {
  return labels?.[LABELS.managed] === 'true' && labels[LABELS.node] === nodeId;
}

/** Something by that name exists but is not this agent's: never touched, the command fails for good. */
export function notOwned(what: string, name: string): CommandFailure {
  return new CommandFailure(
    `a ${what} named "${name}" exists on the node but was not created by this agent (no ${LABELS.managed}/${LABELS.node} labels); rename or remove it`,
    { permanent: true },
  );
}

export async function dockerVersion(docker: Docker): Promise<{ version: string; api_version: string }> {
  const version = await docker.version();
  return { version: String(version.Version ?? 'unknown'), api_version: String(version.ApiVersion ?? 'unknown') };
}
