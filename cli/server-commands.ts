/** The server's commands (cli/berth.ts runs them), listed once for both usage texts. */
export const SERVER_COMMANDS: Record<string, string> = {
  start: 'migrate, then run the API and the workers in this process (and a local agent: LOCAL_AGENT)',
  api: 'migrate, then run the API only',
  worker: 'run the workers only',
  migrate: 'bring the database to the latest migration and exit',
  admin: 'manage operators: admin create --email <address> [--name <name>] [--password-stdin]',
};

export function serverUsage(): string {
  return Object.entries(SERVER_COMMANDS)
    .map(([name, summary]) => `  ${name.padEnd(10)}${summary}`)
    .join('\n');
}
