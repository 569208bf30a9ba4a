import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { hashPassword } from '../shared/crypto/passwords.ts';
import type { Db } from '../shared/db/knex.ts';
import { Membership, User } from '../shared/db/models.ts';
import { assertPasswordPolicy, normalizeEmail } from '../shared/domains/auth/identity.ts';
import { panelLink } from '../shared/domains/auth/links.ts';
import { issueUserToken } from '../shared/domains/auth/user-tokens.ts';
import { createTeamWithOwner } from '../shared/domains/teams/teams.ts';
import { ValidationFailed } from '../shared/errors.ts';

export const adminUsage = `usage: berth admin create --email <address> [--name <name>] [--password-stdin]
  Creates an operator (staff who manage the fleet), or promotes an existing user, verified.
  The password comes from BERTH_ADMIN_PASSWORD or, with --password-stdin, from the first line of
  standard input; without either a new user gets a one-time link (30 minutes) to set it, and an
  existing user keeps theirs. An operator with no team gets a team of their own to sign in to.`;

export type OperatorOutcome = {
  userId: number;
  created: boolean;
  /** The team they sign in to; a fresh one when they had none. */
  team: { id: number; name: string; created: boolean } | null;
  /** A one-time link to set the password (new users without a given password). */
  passwordLink: string | null;
};

/**
 * Makes `email` an operator: creates the user (verified) or promotes the existing one. Login is per
 * team (spec 2.2), so someone with no active membership gets a team of their own, "Platform"
 * (slug `platform-<random>`, never a customer's slug), to sign in to. Nodes do not belong to it:
 * operator power comes from `users.platform_role`, whichever team the operator signs in to.
 */
export async function createOperator(
  db: Db,
  input: { email: string; name?: string | undefined; password?: string | undefined; publicUrl: string },
): Promise<OperatorOutcome> {
  const email = normalizeEmail(input.email);
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw ValidationFailed.field('email', 'is not an e-mail address');
  if (input.password !== undefined) assertPasswordPolicy(input.password);
  // A user created without a password gets an unusable random one until the link sets theirs.
  const passwordHash = await hashPassword(input.password ?? randomBytes(32).toString('base64url'));
  return db.transaction(async (trx) => {
    const now = new Date();
    let user = await User.query(trx).findOne({ email }).forUpdate();
    const created = !user;
    if (!user) {
      user = await User.query(trx).insertAndFetch({
        email,
        name: input.name ?? email.split('@')[0]!,
        password_hash: passwordHash,
        email_verified_at: now,
        platform_role: 'operator',
      });
    } else {
      await User.query(trx)
        .patch({
          platform_role: 'operator',
          email_verified_at: user.email_verified_at ?? now,
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.password !== undefined ? { password_hash: passwordHash, password_changed_at: now } : {}),
          updated_at: now,
        })
        .where({ id: user.id });
    }
    const membership = await Membership.query(trx).where({ user_id: user.id, status: 'ACTIVE' }).orderBy('team_id').first();
    let team: OperatorOutcome['team'] = null;
    if (!membership) {
      const { team: fresh } = await createTeamWithOwner(trx, { name: 'Platform', slug: `platform-${randomBytes(4).toString('hex')}`, ownerUserId: user.id });
      team = { id: fresh.id, name: fresh.name, created: true };
    } else {
      const existing = (await trx('teams').where({ id: membership.team_id }).first('id', 'name')) as { id: number; name: string };
      team = { id: existing.id, name: existing.name, created: false };
    }
    const passwordLink =
      created && input.password === undefined ? panelLink(input.publicUrl, 'reset-password', await issueUserToken(trx, user.id, 'password_reset')) : null;
    return { userId: user.id, created, team, passwordLink };
  });
}

/** `berth admin ...`: parses the arguments, reads the password without echoing it anywhere, prints the outcome. */
export async function runAdminCommand(
  argv: string[],
  deps: { db: Db; publicUrl: string; env: NodeJS.ProcessEnv; stdin: NodeJS.ReadableStream; out: (line: string) => void },
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { email: { type: 'string' }, name: { type: 'string' }, 'password-stdin': { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    deps.out(`berth admin: ${(error as Error).message}\n${adminUsage}`);
    return 2;
  }
  const [action] = parsed.positionals;
  if (action !== 'create' || parsed.positionals.length !== 1 || !parsed.values.email) {
    deps.out(adminUsage);
    return 2;
  }
  const password = parsed.values['password-stdin'] ? await firstLine(deps.stdin) : deps.env.BERTH_ADMIN_PASSWORD || undefined;
  try {
    const outcome = await createOperator(deps.db, { email: parsed.values.email, name: parsed.values.name, password, publicUrl: deps.publicUrl });
    deps.out(`${outcome.created ? 'Created' : 'Promoted'} operator ${normalizeEmail(parsed.values.email)} (user ${outcome.userId}).`);
    if (outcome.team) deps.out(`Signs in to team "${outcome.team.name}" (id ${outcome.team.id})${outcome.team.created ? ', created for them' : ''}.`);
    if (outcome.passwordLink) deps.out(`Set the password within 30 minutes (this link is shown once): ${outcome.passwordLink}`);
    else if (password !== undefined) deps.out('Password set.');
    return 0;
  } catch (error) {
    if (error instanceof ValidationFailed) {
      deps.out(`berth admin: ${error.message}`);
      return 65; // EX_DATAERR
    }
    throw error;
  }
}

async function firstLine(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    text += chunk.toString();
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}
