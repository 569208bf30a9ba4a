import type { Environment, Node } from '../../shared/db/models.ts';
import { resticContainerPayload, resticEnv, type RepositoryKey } from '../../shared/domains/backups/restic.ts';
import { runAgentCommand, type AgentCommandRequest } from '../agent/run-command.ts';
import type { StepContext } from '../operations/runbook.ts';
import { resticRun } from './restic-run.ts';

type CommandBase = Omit<AgentCommandRequest<'container.exec'>, 'kind' | 'payload' | 'part'>;

/**
 * Runs a restic script against one repository in a throwaway container that mounts the repository
 * only (no site files, no database): made, the script run in it, then removed. Forgetting a
 * snapshot, an environment's snapshots or pruning reads none of the site. `part` names the three
 * commands apart (`<part>-container`, `<part>-script`, `<part>-cleanup`, or the plain names without one).
 */
export async function runRepositoryScript(
  step: StepContext,
  command: CommandBase,
  work: {
    name: string;
    node: Pick<Node, 'id'>;
    environment: Pick<Environment, 'id' | 'site_id'>;
    key: RepositoryKey;
    /** What the script does, for the message when restic fails ("pruning the repository"). */
    what: string;
    script: string;
    env?: Record<string, string>;
    part?: string;
    /** The script command's own name within `part` ('script' unless told). */
    scriptPart?: string;
    scriptTimeoutSeconds?: number;
  },
) {
  const part = (name: string) => (work.part ? `${work.part}-${name}` : name);
  await runAgentCommand(step.deps, {
    ...command,
    part: part('container'),
    kind: 'container.ensure',
    payload: resticContainerPayload(step.deps.config, work.node, {
      name: work.name,
      role: 'backup',
      environment: work.environment,
      mounts: [],
      repository: { key: work.key, access: 'read-write' },
      capabilities: [],
      database: false,
    }),
  });
  const run = await resticRun(work.what, step.deps.config.backupStorage, () =>
    runAgentCommand(step.deps, {
      ...command,
      part: part(work.scriptPart ?? 'script'),
      kind: 'container.exec',
      ...(work.scriptTimeoutSeconds ? { timeoutSeconds: work.scriptTimeoutSeconds } : {}),
      payload: { name: work.name, cmd: ['bash', '-c', work.script], env: { ...resticEnv(work.key), ...work.env } },
    }),
  );
  await runAgentCommand(step.deps, { ...command, part: part('cleanup'), kind: 'container.remove', payload: { name: work.name } });
  return run;
}
