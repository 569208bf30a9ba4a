/**
 * WP-CLI commands as the API takes them (`POST .../wp-cli {command}`): a string split shell-style
 * into argv here (no shell ever runs it), then checked against Berth's policy. Pure: the API refuses
 * with these reasons before any operation exists, and the unit tests pin them (docs/wp-cli.md).
 */

/** The longest command string and argv the API takes. */
export const WP_CLI_COMMAND_MAX_CHARS = 4000;
export const WP_CLI_MAX_ARGS = 100;

export class WpCliCommandRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WpCliCommandRefused';
  }
}

/**
 * POSIX-shell-like word splitting: whitespace separates words, 'single quotes' keep everything,
 * "double quotes" keep everything but `\"` and `\\`, a backslash outside quotes escapes the next
 * character. No expansion of any kind ($VAR, globs, `;`, `|` are plain characters). A leading `wp`
 * is dropped, as users paste commands from WP-CLI's docs.
 */
export function splitWpCliCommand(command: string): string[] {
  if (command.length > WP_CLI_COMMAND_MAX_CHARS) throw new WpCliCommandRefused(`the command is longer than ${WP_CLI_COMMAND_MAX_CHARS} characters`);
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && (command[i + 1] === '"' || command[i + 1] === '\\')) word += command[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\') {
      if (i + 1 >= command.length) throw new WpCliCommandRefused('the command ends with a lone backslash');
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new WpCliCommandRefused(`the command has an unclosed ${quote === '"' ? 'double' : 'single'} quote`);
  if (inWord) words.push(word);
  if (words[0] === 'wp') words.shift();
  if (words.length > WP_CLI_MAX_ARGS) throw new WpCliCommandRefused(`the command has more than ${WP_CLI_MAX_ARGS} arguments`);
  if (words.some((w) => w.includes('\0'))) throw new WpCliCommandRefused('the command holds a NUL character');
  return words;
}

/** The words that are not flags: `plugin`, `list` of `plugin list --format=json`. */
export function positionalsOf(argv: readonly string[]): string[] {
  return argv.filter((word) => !word.startsWith('--'));
}

/** `--format=json` → ['format', 'json']; `--dry-run` → ['dry-run', true]. */
function flagsOf(argv: readonly string[]): Map<string, string | true> {
  const flags = new Map<string, string | true>();
  for (const word of argv) {
    if (!word.startsWith('--') || word === '--') continue;
    const [name, ...value] = word.slice(2).split('=');
    flags.set(name!, value.length > 0 ? value.join('=') : true);
  }
  return flags;
}

/** Global flags that leave the environment (another path or URL, a remote, a PHP file run first). */
const REFUSED_FLAGS: Record<string, string> = {
  exec: 'runs arbitrary PHP',
  require: 'loads an arbitrary PHP file',
  path: "points WP-CLI at another WordPress than the environment's",
  ssh: 'runs the command on another host',
  http: 'runs the command on another host',
  url: "targets another site than the environment's",
};

/** Whole commands refused, and why. */
const REFUSED_COMMANDS: Record<string, string> = {
  eval: 'runs arbitrary PHP',
  'eval-file': 'runs arbitrary PHP',
  shell: 'is an interactive PHP shell',
  server: 'starts a web server',
  package: 'installs WP-CLI packages (arbitrary code)',
  cli: 'changes WP-CLI itself',
};

/** Subcommands refused: `db drop` and friends touch the database wholesale (use backups), `core download` replaces WordPress. */
const REFUSED_SUBCOMMANDS: Record<string, Record<string, string>> = {
  db: {
    drop: 'destroys the database (use backups and restores)',
    reset: 'empties the database (use backups and restores)',
    import: 'replaces the database (use backups and restores)',
    export: 'dumps the database with its secrets (use backups)',
    query: 'runs arbitrary SQL',
    cli: 'opens a MySQL shell',
    clean: 'drops the tables of the site',
  },
  core: {
    download: 'replaces WordPress (the image provides it)',
    update: 'replaces WordPress (the image provides it)',
    install: 'installs WordPress (Berth installs it when it creates the environment)',
  },
};

/**
 * Berth's built-in subset (WP-CLI's names, arguments and output), answered by the PHP helper with
 * WordPress's functions when the image carries no real `wp`. Kept in step with berth-helper.php.
 */
export const WP_CLI_SUBSET: Record<string, readonly string[]> = {
  plugin: ['list', 'activate', 'deactivate'],
  theme: ['list', 'activate'],
  option: ['get', 'update'],
  user: ['list'],
  cache: ['flush'],
  core: ['version'],
  'search-replace': [],
};

const LIST_FORMATS = ['table', 'json', 'csv'];

/**
 * The argv if Berth runs it, else WpCliCommandRefused naming why: empty, a refused command or flag,
 * or (the images carry no real `wp`) a command outside the built-in subset.
 */
export function checkWpCliCommand(argv: readonly string[]): string[] {
  const words = positionalsOf(argv);
  const flags = flagsOf(argv);
  if (words.length === 0) throw new WpCliCommandRefused(argv.length === 0 ? 'the command is empty' : 'the command names no WP-CLI command, only flags');
  for (const [flag, why] of Object.entries(REFUSED_FLAGS)) {
    if (flags.has(flag)) throw new WpCliCommandRefused(`the global flag --${flag} is refused: it ${why}`);
  }
  const [command, sub] = [words[0]!, words[1]];
  if (REFUSED_COMMANDS[command]) throw new WpCliCommandRefused(`\`wp ${command}\` is refused: it ${REFUSED_COMMANDS[command]}`);
  const refusedSub = sub ? REFUSED_SUBCOMMANDS[command]?.[sub] : undefined;
  if (refusedSub) throw new WpCliCommandRefused(`\`wp ${command} ${sub}\` is refused: it ${refusedSub}`);
  if (command === 'config' && sub !== 'get' && sub !== 'list' && sub !== 'has' && sub !== 'path') {
    throw new WpCliCommandRefused(`\`wp config${sub ? ` ${sub}` : ''}\` is refused: wp-config.php is Berth's (only config get, list, has and path read it)`);
  }
  const subs = WP_CLI_SUBSET[command];
  if (!subs) {
    throw new WpCliCommandRefused(`\`wp ${command}\` is not in Berth's WP-CLI subset (${Object.keys(WP_CLI_SUBSET).join(', ')}); see docs/wp-cli.md`);
  }
  if (subs.length > 0 && (!sub || !subs.includes(sub))) {
    throw new WpCliCommandRefused(`\`wp ${command}${sub ? ` ${sub}` : ''}\` is not in Berth's WP-CLI subset: wp ${command} ${subs.join('|')}`);
  }
  const format = flags.get('format');
  if (format !== undefined && (format === true || !LIST_FORMATS.includes(format))) {
    throw new WpCliCommandRefused(`--format must be one of ${LIST_FORMATS.join(', ')}`);
  }
  if (command === 'search-replace' && words.length < 3) throw new WpCliCommandRefused('wp search-replace needs <old> and <new>');
  return [...argv];
}

/** Commands that change nothing, after which no cached page needs purging. */
export function isReadOnlyWpCliCommand(argv: readonly string[]): boolean {
  const [command, sub] = positionalsOf(argv);
  if (command === 'search-replace') return flagsOf(argv).has('dry-run');
  if (command === 'core') return sub === 'version';
  if (command === 'config') return sub === 'get' || sub === 'list' || sub === 'has' || sub === 'path';
  return sub === 'list' || sub === 'get' || sub === 'version' || sub === 'status';
}

/** The API's entry: a string in, the argv to run out, or WpCliCommandRefused. */
export function parseWpCliCommand(command: string): string[] {
  return checkWpCliCommand(splitWpCliCommand(command.trim()));
}
