import {
  AuthenticationError,
  BerthConnectionError,
  BerthError,
  ConflictError,
  NotFoundError,
  OperationFailedError,
  PermissionDeniedError,
  RateLimitError,
  ValidationError,
} from '../../sdk/typescript/src/index.ts';
import { parseArguments, UsageError, type ParsedArguments } from './arguments.ts';
import type { Command, CommandGroup } from './command.ts';
import { backups } from './commands/backups.ts';
import { envs } from './commands/envs.ts';
import { login, logout, whoami } from './commands/login.ts';
import { logs, ops } from './commands/operations.ts';
import { sites } from './commands/sites.ts';
import { commandContext, NotSignedIn } from './context.ts';
import { EXIT } from './exit-codes.ts';
import type { Terminal } from './terminal.ts';

/** `berth <command>` for customers, on the TypeScript SDK; the server commands (start, api, ...) are cli/berth.ts's. */
const COMMANDS: Record<string, Command> = { login, logout, whoami, logs };
const GROUPS: Record<string, CommandGroup> = { sites, envs, backups, ops };

export const CLIENT_COMMANDS = [...Object.keys(COMMANDS), ...Object.keys(GROUPS)];

const GLOBAL_OPTIONS = [
  'Options of every command:',
  '  --json          Print the result as JSON on stdout (progress stays on stderr)',
  '  --url URL       The Berth API (default: BERTH_URL, else the one `berth login` stored)',
  '  --token TOKEN   An API token (default: BERTH_TOKEN, else the one `berth login` stored)',
  '  --help          What a command does and takes',
];

const EXIT_CODES = [
  'Exit codes: 0 done; 1 unexpected; 2 bad command line; 3 not signed in or token refused; 4 not allowed;',
  '5 not found; 6 invalid input (fields printed); 7 operation failed or cancelled; 8 conflict or plan limit;',
  '9 API unreachable or still busy after retries.',
];

export function clientUsage(): string {
  const lines = ['Customer commands (on the Berth API):'];
  const entries: Array<[string, string]> = [
    ...Object.entries(COMMANDS).map(([name, command]): [string, string] => [name, command.summary]),
    ...Object.entries(GROUPS).map(([name, group]): [string, string] => [`${name} ${Object.keys(group.commands).join('|')}`, group.summary]),
  ];
  const width = Math.max(...entries.map(([name]) => name.length)) + 2;
  for (const [name, summary] of entries) lines.push(`  ${name.padEnd(width)}${summary}`);
  return [...lines, '', ...GLOBAL_OPTIONS, '', ...EXIT_CODES].join('\n');
}

function commandHelp(command: Command): string {
  return [`usage: ${command.usage}`, '', command.summary, ...(command.help.length > 0 ? ['', ...command.help] : []), '', ...GLOBAL_OPTIONS].join('\n');
}

function groupHelp(name: string, group: CommandGroup): string {
  return [
    `usage: berth ${name} <${Object.keys(group.commands).join('|')}> ...`,
    '',
    group.summary,
    '',
    ...Object.values(group.commands).map((command) => `  ${command.usage}\n      ${command.summary}`),
  ].join('\n');
}

/** The command a line names, or its group's help when it names only the group. */
function resolve(args: ParsedArguments): Command | { groupHelp: string } {
  const [first, second] = args.positionals;
  // Own keys only: `berth toString` names no command.
  const own = <T>(table: Record<string, T>, key: string | undefined) => (key !== undefined && Object.hasOwn(table, key) ? table[key] : undefined);
  const command = own(COMMANDS, first);
  if (command) return command;
  const group = own(GROUPS, first);
  if (!group) throw new UsageError(`unknown command "${first ?? ''}"\n\n${clientUsage()}`);
  const verb = own(group.commands, second);
  if (verb) return verb;
  if (!second || args.options.get('help') === true) return { groupHelp: groupHelp(first!, group) };
  throw new UsageError(`unknown command "${first} ${second}"\n\n${groupHelp(first!, group)}`);
}

/** Runs one customer command; answers the exit code. Errors are printed on stderr, in --json as JSON. */
export async function runClient(argv: string[], terminal: Terminal, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let json = false;
  try {
    const args = parseArguments(argv);
    json = args.options.get('json') === true;
    const target = resolve(args);
    if ('groupHelp' in target) {
      terminal.out(target.groupHelp);
      return args.options.get('help') === true ? EXIT.ok : EXIT.usage;
    }
    if (args.options.get('help') === true) {
      terminal.out(commandHelp(target));
      return EXIT.ok;
    }
    return await target.run(commandContext(args, terminal, env));
  } catch (error) {
    const [code, message, extra] = describeFailure(error);
    terminal.err(json ? `${JSON.stringify({ error: { exit_code: code, message, ...extra } })}\n` : `berth: ${message}\n`);
    return code;
  }
}

/** The exit code and the words for a failure; API errors keep their code and request id. */
function describeFailure(error: unknown): [number, string, Record<string, unknown>] {
  if (error instanceof UsageError) return [EXIT.usage, error.message, {}];
  if (error instanceof NotSignedIn) return [EXIT.unauthenticated, error.message, {}];
  if (error instanceof OperationFailedError)
    return [EXIT.operationFailed, error.message, { operation_id: error.operation.id, step: error.step, reason: error.reason }];
  if (error instanceof BerthError) {
    const api = { code: error.code, status: error.status, request_id: error.requestId, details: error.details };
    const request = error.requestId ? ` (request ${error.requestId})` : '';
    if (error instanceof ValidationError) {
      const fields = error.fields.map((field) => `\n  ${field.field || '(body)'}: ${field.message}`).join('');
      return [EXIT.invalid, `${error.message}${fields}`, api];
    }
    const code =
      error instanceof AuthenticationError
        ? EXIT.unauthenticated
        : error instanceof PermissionDeniedError
          ? EXIT.forbidden
          : error instanceof NotFoundError
            ? EXIT.notFound
            : error instanceof ConflictError || error.status === 402
              ? EXIT.conflict
              : error instanceof RateLimitError || error.status >= 500
                ? EXIT.unavailable
                : EXIT.unexpected;
    const hint = error instanceof AuthenticationError ? ': run `berth login`' : '';
    return [code, `${error.message}${hint}${request}`, api];
  }
  if (error instanceof BerthConnectionError) return [EXIT.unavailable, error.message, {}];
  return [EXIT.unexpected, error instanceof Error ? (error.stack ?? error.message) : String(error), {}];
}
