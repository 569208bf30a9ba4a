import { Berth } from '../../sdk/typescript/src/index.ts';
import { optionOf, type ParsedArguments } from './arguments.ts';
import { readCredentials } from './credentials.ts';
import type { Terminal } from './terminal.ts';

/** What every command gets: the parsed line, where to write, and how to reach the API. */
export type CommandContext = {
  args: ParsedArguments;
  terminal: Terminal;
  env: NodeJS.ProcessEnv;
  /** --json: print the API's objects as JSON (one document) instead of tables and sentences. */
  json: boolean;
  /** A client for the signed-in user: --url/--token, else BERTH_URL/BERTH_TOKEN, else `berth login`'s. */
  client(): Berth;
};

export class NotSignedIn extends Error {
  constructor() {
    super('not signed in: run `berth login` (or set BERTH_URL and BERTH_TOKEN)');
  }
}

export function commandContext(args: ParsedArguments, terminal: Terminal, env: NodeJS.ProcessEnv): CommandContext {
  return {
    args,
    terminal,
    env,
    json: args.options.get('json') === true,
    client() {
      const stored = readCredentials(env);
      const baseUrl = optionOf(args, 'url') || env.BERTH_URL || stored?.url;
      const token = optionOf(args, 'token') || env.BERTH_TOKEN || stored?.token;
      if (!baseUrl || !token) throw new NotSignedIn();
      return new Berth({ baseUrl, token, userAgent: 'berth-cli' });
    },
  };
}
