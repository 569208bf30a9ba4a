import { execFile } from 'node:child_process';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../../cli/admin.ts';
import { User } from '../../../shared/db/models.ts';
import { bearer } from '../../helpers/client.ts';
import { createOwner, DEFAULT_PASSWORD, signIn, trustDevice, uniqueEmail } from '../../helpers/factories.ts';
import { testDatabaseUrl } from '../../helpers/services.ts';
import { startStack, PANEL_URL, type Stack } from '../../helpers/stack.ts';

/** `berth admin create`: operators are made from the command line, then sign in like anyone. */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ workers: false });
});
afterAll(async () => {
  await stack?.stop();
});

async function admin(argv: string[], options: { env?: NodeJS.ProcessEnv; stdin?: string } = {}) {
  const lines: string[] = [];
  const code = await runAdminCommand(argv, {
    db: stack.ctx.db,
    publicUrl: PANEL_URL,
    env: options.env ?? {},
    stdin: Readable.from([options.stdin ?? '']),
    out: (line) => lines.push(line),
  });
  return { code, output: lines.join('\n') };
}

describe('berth admin create', () => {
  it('creates a verified operator with a team of their own and a one-time link to set the password', async () => {
    const email = uniqueEmail();
    const { code, output } = await admin(['create', '--email', email.toUpperCase(), '--name', 'Olga Ops']);
    expect(code).toBe(0);
    const link = /(http:\/\/panel\.berth\.test\/reset-password\?token=\S+)/.exec(output)?.[1];
    expect(link).toBeDefined();
    const user = (await User.query(stack.ctx.db).findOne({ email }))!;
    expect(user).toMatchObject({ name: 'Olga Ops', platform_role: 'operator' });
    expect(user.email_verified_at).not.toBeNull();
    const membership = await stack.ctx
      .db('memberships as m')
      .join('teams as t', 't.id', 'm.team_id')
      .where({ 'm.user_id': user.id })
      .first('t.id', 't.name', 't.slug');
    expect(membership).toMatchObject({ name: 'Platform' });
    expect(membership.slug).toMatch(/^platform-[0-9a-f]{8}$/);

    // The link's token sets the password through the spec's own endpoint; then the operator signs in.
    const token = new URL(link!).searchParams.get('token');
    const confirm = await stack.client().post('/api/v1/auth/password-reset/confirm', { token, new_password: DEFAULT_PASSWORD });
    expect(confirm.status).toBe(200);
    await trustDevice(stack.ctx.db, user.id);
    const exchange = await signIn(stack.client(), { email, password: DEFAULT_PASSWORD, teamId: membership.id });
    const access = exchange.setCookies.find((cookie) => cookie.name === 'svc_access')!.value;
    expect((await stack.client().get('/v1/nodes', bearer(access))).status).toBe(200);
  });

  it('promotes an existing user, keeping their team and password; BERTH_ADMIN_PASSWORD or stdin set one', async () => {
    const owner = await createOwner(stack.ctx.db);
    const promoted = await admin(['create', '--email', owner.email]);
    expect(promoted.code).toBe(0);
    expect(promoted.output).toContain(`Promoted operator ${owner.email}`);
    expect(promoted.output).not.toContain('reset-password');
    expect((await User.query(stack.ctx.db).findById(owner.userId))!.platform_role).toBe('operator');
    expect(await stack.ctx.db('memberships').where({ user_id: owner.userId }).select('team_id')).toEqual([{ team_id: owner.teamId }]);
    const exchange = await signIn(stack.client(), owner);
    expect(exchange.status).toBe(200);

    const email = uniqueEmail();
    const fromEnv = await admin(['create', '--email', email], { env: { BERTH_ADMIN_PASSWORD: 'an operator passphrase' } });
    expect(fromEnv.output).toContain('Password set.');
    expect(fromEnv.output).not.toContain('an operator passphrase');
    const fromStdin = await admin(['create', '--email', uniqueEmail(), '--password-stdin'], { stdin: 'typed in secretly\n' });
    expect(fromStdin.code).toBe(0);
    expect(fromStdin.output).not.toContain('typed in secretly');
  });

  it('refuses bad input with a usage line or the reason', async () => {
    expect((await admin([])).code).toBe(2);
    expect((await admin(['create'])).code).toBe(2);
    expect((await admin(['create', '--email', 'x@y.z', '--colour', 'red'])).code).toBe(2);
    const weak = await admin(['create', '--email', uniqueEmail()], { env: { BERTH_ADMIN_PASSWORD: 'short' } });
    expect(weak.code).toBe(65);
    expect(weak.output).toMatch(/password/);
    expect((await admin(['create', '--email', 'not-an-address'])).code).toBe(65);
  });

  it('runs as `berth admin create` in its own process', async () => {
    const email = uniqueEmail();
    const { stdout } = await promisify(execFile)(process.execPath, ['cli/berth.ts', 'admin', 'create', '--email', email], {
      env: {
        ...process.env,
        DATABASE_URL: testDatabaseUrl,
        PUBLIC_URL: PANEL_URL,
        DATA_DIR: stack.ctx.config.dataDir,
        LOG_LEVEL: 'warn',
        BERTH_ADMIN_PASSWORD: '',
      },
    });
    expect(stdout).toContain(`Created operator ${email}`);
    expect(stdout).toMatch(/reset-password\?token=/);
    expect((await User.query(stack.ctx.db).findOne({ email }))!.platform_role).toBe('operator');
  });
});
