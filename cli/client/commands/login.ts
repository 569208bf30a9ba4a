import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Berth } from '../../../sdk/typescript/src/index.ts';
import { optionOf, UsageError } from '../arguments.ts';
import type { Command } from '../command.ts';
import { configDirectory, credentialsFile, readCredentials, removeCredentials, writeCredentials } from '../credentials.ts';
import { EXIT } from '../exit-codes.ts';

/**
 * This machine's device id, made once and kept beside the credentials: Berth asks for the e-mailed
 * code the first time a device signs in and trusts it afterwards.
 */
function deviceFingerprint(env: NodeJS.ProcessEnv): string {
  const file = path.join(configDirectory(env), 'device-id');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    const id = `berth-cli-${randomBytes(16).toString('hex')}`;
    fs.mkdirSync(configDirectory(env), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, `${id}\n`, { mode: 0o600 });
    return id;
  }
}

export const login: Command = {
  usage: 'berth login [--url URL] [--email EMAIL] [--password-stdin] [--team TEAM_ID]',
  summary: 'Sign in (new-device code by e-mail) and keep an API token for this machine',
  help: [
    'Signs in as a script with your e-mail and password. The first time from this machine, Berth e-mails',
    'a code to approve it: type it when asked. Then an API token "berth CLI on <host>" (all of your',
    "role's permissions, 90 days) is created and stored with mode 0600 in $BERTH_CONFIG_DIR, else",
    '$XDG_CONFIG_HOME/berth, else ~/.config/berth (credentials.json). `berth logout` revokes it.',
    '',
    '  --url URL          The Berth API (default: BERTH_URL, else http://127.0.0.1:3000)',
    '  --email EMAIL      Asked when left out',
    '  --password-stdin   Read the password from the first line of stdin (else it is asked)',
    '  --team TEAM_ID     Needed when you belong to several teams',
  ],
  async run(context) {
    const { args, terminal, env } = context;
    const baseUrl = optionOf(args, 'url') || env.BERTH_URL || 'http://127.0.0.1:3000';
    const email = optionOf(args, 'email') ?? (await terminal.ask('E-mail: '));
    const password = args.options.get('password-stdin') === true ? await terminal.ask('') : await terminal.askSecret('Password: ');
    const team = optionOf(args, 'team');
    if (team !== undefined && !/^[1-9]\d{0,9}$/.test(team)) throw new UsageError('--team must be a team id');
    const session = await Berth.signIn({
      baseUrl,
      email,
      password,
      ...(team ? { teamId: Number(team) } : {}),
      deviceFingerprint: deviceFingerprint(env),
      onDeviceApproval: () => terminal.ask(`New device: enter the code Berth e-mailed to ${email}: `),
    });
    const created = await session.apiTokens.create({
      body: { name: `berth CLI on ${os.hostname()}`.slice(0, 100), permissions: ['*'], expires_in_days: 90 },
    });
    // Only the answer that creates a token carries its secret.
    if (!created.token) throw new Error('the API token was created without its secret in the answer');
    const token = created.token;
    const previous = readCredentials(env);
    const file = writeCredentials({ url: baseUrl, token, token_id: created.id, email, created_at: new Date().toISOString() }, env);
    // The token this replaces is revoked, so logins do not pile up live tokens.
    if (previous && previous.url === baseUrl) await new Berth({ baseUrl, token }).apiTokens.revoke({ id: previous.token_id }).catch(() => undefined);
    if (context.json) terminal.out(JSON.stringify({ url: baseUrl, email, token_id: created.id, credentials: file }));
    else terminal.out(`Signed in to ${baseUrl} as ${email}; API token ${created.prefix}… stored in ${file}`);
    return EXIT.ok;
  },
};

export const logout: Command = {
  usage: 'berth logout',
  summary: 'Revoke the stored API token and forget it',
  help: [],
  async run(context) {
    const stored = readCredentials(context.env);
    if (!stored) {
      context.terminal.out('Not signed in.');
      return EXIT.ok;
    }
    await new Berth({ baseUrl: stored.url, token: stored.token }).apiTokens.revoke({ id: stored.token_id }).catch(() => undefined);
    removeCredentials(context.env);
    context.terminal.out(`Signed out of ${stored.url}; ${credentialsFile(context.env)} removed`);
    return EXIT.ok;
  },
};

export const whoami: Command = {
  usage: 'berth whoami',
  summary: 'Who the stored token acts as: user, team and role',
  help: [],
  async run(context) {
    const me = await context.client().me.get();
    if (context.json) context.terminal.out(JSON.stringify(me));
    else context.terminal.out(`${me.email} in team ${me.team_name} (${me.team_id}) as ${me.role_name}`);
    return EXIT.ok;
  },
};
