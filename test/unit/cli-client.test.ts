import { describe, expect, it } from 'vitest';
import { runClient } from '../../cli/client/main.ts';
import type { Terminal } from '../../cli/client/terminal.ts';

/** A terminal that keeps what was written and answers no prompt. */
function recordingTerminal() {
  const written = { out: '', err: '' };
  const terminal: Terminal = {
    out: (text) => void (written.out += `${text}\n`),
    err: (text) => void (written.err += text),
    interactive: false,
    ask: () => Promise.reject(new Error('no prompt expected')),
    askSecret: () => Promise.reject(new Error('no prompt expected')),
  };
  return { terminal, written };
}

describe('the berth command line, before it reaches the API', () => {
  it.each([
    [['nonsense'], /unknown command "nonsense"/],
    [['toString'], /unknown command "toString"/],
    [['sites', 'constructor'], /unknown command "sites constructor"/],
    [['sites', 'delete', 'abc', '--yes'], /SITE_ID must be a number, not "abc"/],
    [['envs', 'push', '1', 'staging', 'live'], /production, staging or development, not "live"/],
    [['login', '--team'], /--team needs a value/],
  ])('answers %j with exit 2 and says why', async (argv, message) => {
    const { terminal, written } = recordingTerminal();
    expect(await runClient(argv, terminal, {})).toBe(2);
    expect(written.err).toMatch(message);
  });

  it('says it is not signed in (exit 3) without a token, in JSON with --json', async () => {
    const { terminal, written } = recordingTerminal();
    expect(await runClient(['sites', 'list', '--json'], terminal, { BERTH_CONFIG_DIR: '/nonexistent-berth-config' })).toBe(3);
    expect(JSON.parse(written.err).error).toMatchObject({ exit_code: 3, message: expect.stringMatching(/berth login/) });
  });

  it('prints help for every command with exit 0', async () => {
    for (const argv of [
      ['sites', 'create', '--help'],
      ['backups', '--help'],
      ['login', '--help'],
    ]) {
      const { terminal, written } = recordingTerminal();
      expect(await runClient(argv, terminal, {})).toBe(0);
      expect(written.out).toMatch(/usage: berth/);
    }
  });
});
