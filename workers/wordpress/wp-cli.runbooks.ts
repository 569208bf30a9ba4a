import { environmentLayout } from '../../shared/domains/nodes/node-layout.ts';
import type { OperationInput } from '../../shared/domains/operations/operation-kinds.ts';
import { parseHelperOutput, WORDPRESS_RUNTIME, WordpressHelperFailed } from '../../shared/wordpress/runtime.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import { purgePageCache } from '../edge/purge-page-cache.ts';
import { agentCommand, environmentOf } from '../environments/environment-context.ts';
import { recordInventory } from '../environments/environment-steps.ts';
import { helperFile } from '../environments/site-runtime.ts';
import { runHelper } from '../environments/wordpress-helper.ts';
import { StepFailed, type Runbook, type StepContext } from '../operations/runbook.ts';
import { cappedLog, WP_CLI_LOG_LIMITS } from './wp-cli-output.ts';

type CliStep = StepContext<OperationInput<'wordpress.cli'>>;
type SearchReplaceStep = StepContext<OperationInput<'wordpress.search_replace'>>;

/** What `timeout` answers when it stopped the command. */
const TIMED_OUT = 124;
/** The helper's JSON answer carries the subset's output: read more of it than of a real wp's. */
const HELPER_ANSWER_MAX_BYTES = 4 * 1024 * 1024;

/**
 * A real `wp` in the image if it has one, else the helper's subset (berth-helper.php `wp-cli`), as
 * the site's user in the docroot, under `timeout`. argv goes as the script's arguments ("$@"), never
 * through a shell's parsing. Output goes to files in a directory of the work directory, not the
 * exec's stream (which the agent logs line by line, uncapped): `rc` says which ran and its exit
 * code; the worker reads the files' first bytes back, then removes the directory.
 */
const RUN_SCRIPT = `mkdir -p "$BERTH_DIR" && cd ${WORDPRESS_RUNTIME.docroot} || exit 125
if command -v wp >/dev/null 2>&1; then
  timeout -k 10 "$BERTH_TIMEOUT" wp --path=${WORDPRESS_RUNTIME.docroot} "$@" >"$BERTH_DIR/out" 2>"$BERTH_DIR/err"; echo "wp $?" >"$BERTH_DIR/rc"
else
  printf %s "$BERTH_HELPER_INPUT" | timeout -k 10 "$BERTH_TIMEOUT" php ${WORDPRESS_RUNTIME.helperPath} wp-cli - >"$BERTH_DIR/out" 2>"$BERTH_DIR/err"; echo "subset $?" >"$BERTH_DIR/rc"
fi`;

async function runCommand(step: CliStep): Promise<unknown> {
  const { input } = step;
  const { environment, node } = await environmentOf(step);
  const layout = environmentLayout(environment);
  // each try runs the command afresh: a failed read-back must not leave a stale answer to a retry
  const part = `wp-cli@${step.attempt}`;
  const dir = `.berth-wp-cli-${step.operation.id}-${step.attempt}`;
  await runAgentCommand(step.deps, {
    ...agentCommand(step, 'run', node.id, part),
    timeoutSeconds: input.timeout_seconds + 60,
    kind: 'container.exec',
    payload: {
      name: layout.container,
      user: WORDPRESS_RUNTIME.siteUser,
      cmd: ['sh', '-c', RUN_SCRIPT, 'wp', ...input.argv],
      env: {
        BERTH_TIMEOUT: String(input.timeout_seconds),
        BERTH_DIR: `${WORDPRESS_RUNTIME.workDir}/${dir}`,
        BERTH_HELPER_INPUT: JSON.stringify({ argv: input.argv }),
      },
      ok_exit_codes: [0],
    },
  });
  const read = async (file: string, maxBytes: number) => {
    const answer = await runAgentCommand(step.deps, {
      ...agentCommand(step, 'run', node.id, `${part}-${file}`),
      kind: 'files.get',
      payload: { path: `${layout.workDir}/${dir}/${file}`, max_bytes: maxBytes },
      forgetResult: true,
    });
    return { text: Buffer.from(answer.content_base64, 'base64').toString(), truncated: answer.truncated };
  };
  const rc = await read('rc', 100);
  const [mode, code] = rc.text.trim().split(' ');
  const exitCode = Number(code);
  if ((mode !== 'wp' && mode !== 'subset') || !Number.isInteger(exitCode))
    throw new StepFailed(`running the command left ${JSON.stringify(rc.text.slice(0, 100))}`);
  const out = await read('out', mode === 'wp' ? WP_CLI_LOG_LIMITS.bytes : HELPER_ANSWER_MAX_BYTES);
  const err = await read('err', 64 * 1024);
  await runAgentCommand(step.deps, {
    ...agentCommand(step, 'run', node.id, `${part}-forget`),
    kind: 'directory.remove',
    payload: { path: `${layout.workDir}/${dir}` },
  });
  const result = mode === 'wp' ? { exit_code: exitCode, stdout: out.text, stderr: err.text } : await subsetAnswer(step, node.id, exitCode, out.text, err.text);
  const { lines, dropped } = cappedLog({ stdout: result.stdout, stderr: result.stderr, truncatedBytes: out.truncated ? 1 : 0 });
  for (const { stream, line } of lines) await step.log(line, stream);
  const command = `wp ${input.argv.join(' ')}`;
  if (result.exit_code === TIMED_OUT) throw new StepFailed(`${command} timed out after ${input.timeout_seconds} s`, { permanent: true, exitCode: TIMED_OUT });
  if (result.exit_code !== 0) {
    throw new StepFailed(`${command} exited with ${result.exit_code}`, { permanent: true, exitCode: result.exit_code, stderrTail: result.stderr.slice(-2000) });
  }
  return { exit_code: 0, runner: mode === 'wp' ? 'wp' : 'berth-subset', dropped };
}

/**
 * The helper's answer: WP-CLI's stdout, stderr and exit code inside its JSON. `timeout` stopping
 * it is a timeout; a helper older than this command (an older control plane wrote the node's copy)
 * is replaced, and the step tries again.
 */
async function subsetAnswer(step: CliStep, nodeId: string, exitCode: number, out: string, err: string) {
  if (exitCode === TIMED_OUT) return { exit_code: TIMED_OUT, stdout: '', stderr: `Error: timed out after ${step.input.timeout_seconds} s\n${err}` };
  try {
    const data = parseHelperOutput('wp-cli', { exit_code: exitCode, stdout: out, stderr: err });
    return { exit_code: Number(data.exit_code), stdout: String(data.stdout ?? ''), stderr: `${String(data.stderr ?? '')}${err}` };
  } catch (error) {
    if (error instanceof WordpressHelperFailed && error.code === 'UNKNOWN_COMMAND') {
      await runAgentCommand(step.deps, {
        ...agentCommand(step, 'run', nodeId, `wp-cli-helper@${step.attempt}`),
        kind: 'files.put',
        payload: { files: [helperFile(nodeId)] },
      });
      throw new StepFailed("the node's helper predates wp-cli: replaced, trying again");
    }
    const failure = error as WordpressHelperFailed;
    // WordPress itself failed (no database, not installed): what WP-CLI would say, exit 1
    return { exit_code: 1, stdout: '', stderr: `Error: ${failure.message}\n${err}` };
  }
}

/** What WordPress now runs, after a command that may have changed it (plugins, themes, its title). */
async function inventoryUnlessReadOnly(step: CliStep): Promise<unknown> {
  if (step.input.read_only) {
    await step.log('a read-only command: the inventory stands');
    return { skipped: 'read-only command' };
  }
  return recordInventory(step);
}

/** Read-only commands changed no page: nothing to purge. */
async function purgeUnlessReadOnly(step: CliStep): Promise<unknown> {
  if (step.input.read_only) {
    await step.log('a read-only command: no cached page to purge');
    return { skipped: 'read-only command' };
  }
  return purgePageCache(step);
}

/** `wordpress.cli`: a WP-CLI command in the environment's container (docs/wp-cli.md). */
export const wordpressCliRunbook: Runbook<'wordpress.cli'> = {
  steps: { run: runCommand, inventory: inventoryUnlessReadOnly, purge_cache: purgeUnlessReadOnly },
  result: (results) => results.run,
};

/** The helper's serialized-safe search-replace over the site's tables (or `tables`), counted per table. */
async function searchReplace(step: SearchReplaceStep): Promise<unknown> {
  const { input } = step;
  const { environment } = await environmentOf(step);
  const answer = await runHelper(step, 'replace', environment, 'search-replace', {
    old: input.search,
    new: input.replace,
    dry_run: input.dry_run,
    ...(input.tables ? { tables: input.tables } : {}),
  });
  const tables = (answer.tables ?? []) as Array<{ table: string; rows_changed: number; cells_changed: number; skipped?: string }>;
  for (const table of tables) {
    if (table.cells_changed > 0 || table.skipped) {
      await step.log(
        `${table.table}: ${table.cells_changed} value(s) in ${table.rows_changed} row(s)${input.dry_run ? ' would change' : ' changed'}${table.skipped ? ` (skipped: ${table.skipped})` : ''}`,
      );
    }
  }
  await step.log(
    `${input.dry_run ? 'dry run: ' : ''}${String(answer.cells_changed)} value(s) in ${String(answer.rows_changed)} row(s) of ${tables.length} table(s)`,
  );
  return answer;
}

async function purgeUnlessDryRun(step: SearchReplaceStep): Promise<unknown> {
  if (step.input.dry_run) {
    await step.log('a dry run: nothing changed, nothing to purge');
    return { skipped: 'dry run' };
  }
  return purgePageCache(step);
}

/** `wordpress.search_replace`. */
export const wordpressSearchReplaceRunbook: Runbook<'wordpress.search_replace'> = {
  steps: { replace: searchReplace, purge_cache: purgeUnlessDryRun },
  result: (results) => results.replace,
};
