/** A command line split into positionals and `--flag value` / `--flag` options. */
export type ParsedArguments = { positionals: string[]; options: Map<string, string | true> };

/** Flags that never take a value; every other `--flag` takes the next word (or `--flag=value`). */
const SWITCHES = new Set(['json', 'help', 'no-files', 'no-database', 'password-stdin', 'no-wait', 'yes']);

export class UsageError extends Error {}

export function parseArguments(argv: string[]): ParsedArguments {
  const positionals: string[] = [];
  const options = new Map<string, string | true>();
  for (let index = 0; index < argv.length; index += 1) {
    const word = argv[index]!;
    if (word === '-h') options.set('help', true);
    else if (word.startsWith('--')) {
      const [name, inline] = word.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      if (inline !== undefined) options.set(name, inline);
      else if (SWITCHES.has(name)) options.set(name, true);
      else {
        const value = argv[index + 1];
        if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
        options.set(name, value);
        index += 1;
      }
    } else positionals.push(word);
  }
  return { positionals, options };
}

/** The value of `--name`, if given as a value. */
export function optionOf(parsed: ParsedArguments, name: string): string | undefined {
  const value = parsed.options.get(name);
  return typeof value === 'string' ? value : undefined;
}

/** A positional that must be a row id (a site's id). */
export function idArgument(value: string | undefined, what: string): number {
  if (value === undefined) throw new UsageError(`missing the ${what}`);
  if (!/^[1-9]\d{0,9}$/.test(value)) throw new UsageError(`the ${what} must be a number, not "${value}"`);
  return Number(value);
}

/** A positional naming an environment by its kind. */
export function environmentArgument(value: string | undefined): 'production' | 'staging' | 'development' {
  if (value === 'production' || value === 'staging' || value === 'development') return value;
  throw new UsageError(`the environment must be production, staging or development${value ? `, not "${value}"` : ''}`);
}
