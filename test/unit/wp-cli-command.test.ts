import { describe, expect, it } from 'vitest';
import {
  checkWpCliCommand,
  isReadOnlyWpCliCommand,
  parseWpCliCommand,
  splitWpCliCommand,
  WpCliCommandRefused,
} from '../../shared/domains/wordpress/wp-cli-command.ts';
import { cappedLog } from '../../workers/wordpress/wp-cli-output.ts';

const refusal = (command: string) => {
  try {
    parseWpCliCommand(command);
  } catch (error) {
    if (error instanceof WpCliCommandRefused) return error.message;
    throw error;
  }
  throw new Error(`${command} was not refused`);
};

describe('splitting a WP-CLI command shell-style', () => {
  it('splits on whitespace and keeps quoted words whole', () => {
    expect(splitWpCliCommand(`option update blogname 'My "great" site'`)).toEqual(['option', 'update', 'blogname', 'My "great" site']);
    expect(splitWpCliCommand(`option update blogname "It's \\"here\\""`)).toEqual(['option', 'update', 'blogname', `It's "here"`]);
    expect(splitWpCliCommand('  plugin   list\t--format=json ')).toEqual(['plugin', 'list', '--format=json']);
    expect(splitWpCliCommand(`search-replace a\\ b ''`)).toEqual(['search-replace', 'a b', '']);
  });

  it('expands nothing: $VAR, globs, ; and | stay plain characters', () => {
    expect(splitWpCliCommand('option get $HOME;rm -rf /*|cat')).toEqual(['option', 'get', '$HOME;rm', '-rf', '/*|cat']);
  });

  it('drops a leading wp', () => {
    expect(splitWpCliCommand('wp core version')).toEqual(['core', 'version']);
  });

  it('refuses unclosed quotes and a lone trailing backslash', () => {
    expect(() => splitWpCliCommand(`option get 'blogname`)).toThrow(/unclosed single quote/);
    expect(() => splitWpCliCommand(`option get "blogname`)).toThrow(/unclosed double quote/);
    expect(() => splitWpCliCommand('option get \\')).toThrow(/lone backslash/);
  });
});

describe("Berth's WP-CLI policy", () => {
  it('accepts the subset', () => {
    expect(parseWpCliCommand('plugin list --format=json')).toEqual(['plugin', 'list', '--format=json']);
    for (const command of [
      'plugin activate akismet',
      'plugin deactivate akismet',
      'theme list',
      'theme activate twentytwentyfour',
      'option get blogname',
      'option update blogname x',
      'user list --format=csv',
      'cache flush',
      'core version',
      'search-replace a b --dry-run',
    ]) {
      expect(parseWpCliCommand(command)).toEqual(splitWpCliCommand(command));
    }
  });

  it('refuses an empty command', () => {
    expect(refusal('')).toBe('the command is empty');
    expect(refusal('   ')).toBe('the command is empty');
    expect(refusal('--format=json')).toMatch(/only flags/);
  });

  it('refuses the database, config, core and code-running commands, naming why', () => {
    for (const sub of ['drop', 'reset', 'import', 'query', 'cli', 'clean', 'export'])
      expect(refusal(`db ${sub}`)).toMatch(new RegExp(`^\`wp db ${sub}\` is refused: it `));
    expect(refusal('config set WP_DEBUG true')).toMatch(/`wp config set` is refused: wp-config.php is Berth's/);
    expect(refusal('config delete DB_PASSWORD')).toMatch(/`wp config delete` is refused/);
    expect(refusal('config create')).toMatch(/`wp config create` is refused/);
    for (const sub of ['download', 'update', 'install']) expect(refusal(`core ${sub}`)).toMatch(/replaces WordPress|installs WordPress/);
    expect(refusal(`eval 'echo 1;'`)).toMatch(/`wp eval` is refused: it runs arbitrary PHP/);
    expect(refusal('eval-file x.php')).toMatch(/runs arbitrary PHP/);
    expect(refusal('shell')).toMatch(/interactive PHP shell/);
    expect(refusal('server')).toMatch(/web server/);
    expect(refusal('package install x')).toMatch(/WP-CLI packages/);
    expect(refusal('cli update')).toMatch(/WP-CLI itself/);
  });

  it('refuses the global flags that leave the environment', () => {
    for (const flag of ['--exec=phpinfo();', '--require=/tmp/x.php', '--path=/srv', '--ssh=host', '--http=https://x', '--url=other.example']) {
      expect(refusal(`option get blogname ${flag}`)).toMatch(new RegExp(`^the global flag ${flag.split('=')[0]} is refused`));
    }
  });

  it('refuses commands outside the subset and formats outside table, json, csv', () => {
    expect(refusal('post list')).toMatch(/`wp post` is not in Berth's WP-CLI subset/);
    expect(refusal('plugin install akismet')).toMatch(/`wp plugin install` is not in Berth's WP-CLI subset: wp plugin list\|activate\|deactivate/);
    expect(refusal('plugin list --format=yaml')).toMatch(/--format must be one of table, json, csv/);
    expect(refusal('search-replace only-old')).toMatch(/needs <old> and <new>/);
  });

  it('checks argv given directly', () => {
    expect(() => checkWpCliCommand([])).toThrow(WpCliCommandRefused);
  });
});

describe('read-only commands', () => {
  it('knows which commands change nothing', () => {
    for (const command of ['plugin list', 'theme list --format=json', 'option get blogname', 'user list', 'core version', 'search-replace a b --dry-run']) {
      expect(isReadOnlyWpCliCommand(splitWpCliCommand(command))).toBe(true);
    }
    for (const command of ['plugin activate akismet', 'theme activate x', 'option update blogname x', 'cache flush', 'search-replace a b']) {
      expect(isReadOnlyWpCliCommand(splitWpCliCommand(command))).toBe(false);
    }
  });
});

describe("capping a command's output in the log", () => {
  it('keeps stdout then stderr within the line and byte limits, then says what was dropped', () => {
    const stdout = Array.from({ length: 5 }, (_, i) => `out ${i}`).join('\n') + '\n';
    expect(cappedLog({ stdout, stderr: 'Error: boom\n' }, { lines: 10, bytes: 1000 })).toEqual({
      lines: [...[0, 1, 2, 3, 4].map((i) => ({ stream: 'stdout', line: `out ${i}` })), { stream: 'stderr', line: 'Error: boom' }],
      dropped: { lines: 0, bytes: 0 },
    });
    const capped = cappedLog({ stdout, stderr: '' }, { lines: 3, bytes: 1000 });
    expect(capped.lines.map((l) => l.line)).toEqual([
      'out 0',
      'out 1',
      'out 2',
      'output capped at 3 lines / 1000 bytes: 2 more line(s), 12 byte(s) not logged',
    ]);
    expect(cappedLog({ stdout, stderr: '' }, { lines: 100, bytes: 12 }).lines.map((l) => l.line)).toEqual([
      'out 0',
      'out 1',
      'output capped at 100 lines / 12 bytes: 3 more line(s), 18 byte(s) not logged',
    ]);
  });
});
