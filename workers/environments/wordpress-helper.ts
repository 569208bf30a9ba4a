import type { Environment } from '../../shared/db/models.ts';
import { parseHelperOutput, WORDPRESS_RUNTIME, type HelperCommand } from '../../shared/wordpress/runtime.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import { StepFailed, type StepContext } from '../operations/runbook.ts';
import { environmentLayout } from '../../shared/domains/nodes/node-layout.ts';
import { helperFile } from './site-runtime.ts';

const HELPER_TIMEOUT_SECONDS = 180;

/** Helper answers that running it again cannot change (see shared/wordpress/README.md): no retry is spent on them. */
const PERMANENT_CODES = new Set([
  'INVALID_INPUT',
  'UNKNOWN_COMMAND',
  'NOT_FOUND',
  'CONFLICT',
  'INSTALL_FAILED',
  'ACTIVATION_FAILED',
  'DELETE_FAILED',
  'NO_WORDPRESS',
  'NOT_INSTALLED',
]);

/**
 * Runs the PHP helper in the environment's container, as the site's user. The input goes through the
 * exec's environment (not argv), so a database password is not in the command line that a failure
 * message quotes. With `secretOutput` the answer (a password link) is written to a file in the work
 * directory and read back with files.get, never streamed to the operation's log like exec output.
 */
export async function runHelper(
  step: StepContext,
  stepName: string,
  environment: Pick<Environment, 'id' | 'node_id'>,
  command: HelperCommand,
  input: Record<string, unknown>,
  options: { part?: string; secretOutput?: boolean } = {},
): Promise<Record<string, unknown>> {
  try {
    return await runHelperOnce(step, stepName, environment, command, input, options);
  } catch (error) {
    if (!(error instanceof StepFailed) || (error.cause as { code?: string } | undefined)?.code !== 'UNKNOWN_COMMAND') throw error;
    // The node's copy of the helper predates this command (an older control plane wrote it): ours
    // replaces it (every container mounts that one file read-only), and the command runs again.
    const part = options.part ?? command;
    await runAgentCommand(step.deps, {
      operation: step.operation,
      step: stepName,
      part: `${part}-helper`,
      nodeId: environment.node_id,
      timeoutSeconds: HELPER_TIMEOUT_SECONDS,
      kind: 'files.put',
      payload: { files: [helperFile(environment.node_id)] },
    });
    return runHelperOnce(step, stepName, environment, command, input, { ...options, part: `${part}-again` });
  }
}

async function runHelperOnce(
  step: StepContext,
  stepName: string,
  environment: Pick<Environment, 'id' | 'node_id'>,
  command: HelperCommand,
  input: Record<string, unknown>,
  options: { part?: string; secretOutput?: boolean },
): Promise<Record<string, unknown>> {
  const layout = environmentLayout(environment);
  const request = { operation: step.operation, step: stepName, nodeId: environment.node_id, timeoutSeconds: HELPER_TIMEOUT_SECONDS };
  const part = options.part ?? command;
  const helper = `printf %s "$BERTH_HELPER_INPUT" | php ${WORDPRESS_RUNTIME.helperPath} ${command} -`;
  if (!options.secretOutput) {
    const run = await runAgentCommand(step.deps, {
      ...request,
      part,
      kind: 'container.exec',
      payload: {
        name: layout.container,
        user: WORDPRESS_RUNTIME.siteUser,
        cmd: ['sh', '-c', helper],
        env: { BERTH_HELPER_INPUT: JSON.stringify(input) },
        ok_exit_codes: [0, 1, 2],
      },
    });
    return parse(command, run);
  }
  // The answer is read back once and then forgotten (the stored result would hold the secret), so
  // each try of the step runs the command afresh (`@<attempt>`): the secret-answering commands
  // (install) are idempotent and give a fresh link each time.
  const tried = `${part}@${step.attempt}`;
  const file = `.berth-${command}-${step.operation.id}.json`;
  const run = await runAgentCommand(step.deps, {
    ...request,
    part: tried,
    kind: 'container.exec',
    payload: {
      name: layout.container,
      user: WORDPRESS_RUNTIME.siteUser,
      cmd: ['sh', '-c', `umask 077; ${helper} > ${WORDPRESS_RUNTIME.workDir}/${file}`],
      env: { BERTH_HELPER_INPUT: JSON.stringify(input) },
      ok_exit_codes: [0, 1, 2],
    },
  });
  const output = await runAgentCommand(step.deps, {
    ...request,
    part: `${tried}-read`,
    kind: 'files.get',
    payload: { path: `${layout.workDir}/${file}` },
    forgetResult: true,
  });
  await runAgentCommand(step.deps, { ...request, part: `${tried}-forget`, kind: 'directory.remove', payload: { path: `${layout.workDir}/${file}` } });
  return parse(command, { exit_code: run.exit_code, stdout: Buffer.from(output.content_base64, 'base64').toString(), stderr: run.stderr });
}

function parse(command: HelperCommand, run: { exit_code: number; stdout: string; stderr: string }): Record<string, unknown> {
  try {
    return parseHelperOutput(command, run);
  } catch (error) {
    const failure = error as Error & { code?: string };
    throw new StepFailed(failure.message, {
      permanent: PERMANENT_CODES.has(failure.code ?? ''),
      exitCode: run.exit_code,
      stderrTail: run.stderr.slice(-2000),
      cause: error,
    });
  }
}
