/**
 * `berth`, the one command line: the server's commands (start, api, worker, migrate, admin: see
 * cli/berth.ts) and the customer's, on the TypeScript SDK (login, sites, envs, backups, ops, logs:
 * cli/client/). The server's modules are loaded only for its commands, so a customer command starts fast.
 */
import { SERVER_COMMANDS, serverUsage } from './server-commands.ts';

const argv = process.argv.slice(2);
if (argv[0] !== undefined && Object.hasOwn(SERVER_COMMANDS, argv[0])) {
  await import('./berth.ts');
} else {
  const { clientUsage, runClient } = await import('./client/main.ts');
  const { processTerminal } = await import('./client/terminal.ts');
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    console.log(
      [
        'usage: berth <command> [options]',
        '',
        'Server commands (on this machine, configured by environment variables; see the README):',
        serverUsage(),
        '',
        clientUsage(),
      ].join('\n'),
    );
    process.exitCode = argv.length === 0 ? 2 : 0;
  } else {
    process.exitCode = await runClient(argv, processTerminal());
    // stdin may still be open for a prompt that was never needed
    process.stdin.destroy();
  }
}
