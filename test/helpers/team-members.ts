import type { Db } from '../../shared/db/knex.ts';
import { User } from '../../shared/db/models.ts';
import { hashPassword } from '../../shared/crypto/passwords.ts';
import { bearer, type Client, type Reply } from './client.ts';
import { DEFAULT_PASSWORD, trustDevice, unique, uniqueEmail, type TestUser } from './factories.ts';

export async function builtinRoleId(db: Db, name: string): Promise<number> {
  const role = await db('roles').whereNull('team_id').where({ name }).first('id');
  if (!role) throw new Error(`no built-in role ${name}`);
  return role.id as number;
}

/** Gives the user the built-in role in their team, straight in the database. */
export async function setBuiltinRole(db: Db, user: TestUser, roleName: string): Promise<void> {
  await db('memberships')
    .where({ user_id: user.userId, team_id: user.teamId })
    .update({ role_id: await builtinRoleId(db, roleName) });
}

let passwordHash: Promise<string> | undefined;

/** A verified user with a trusted device, made a member of `team` with the role (a built-in name or a role id). */
export async function addMember(
  db: Db,
  team: { teamId: number; teamName: string },
  role: string | number,
  status: 'ACTIVE' | 'SUSPENDED' = 'ACTIVE',
): Promise<TestUser> {
  passwordHash ??= hashPassword(DEFAULT_PASSWORD);
  const email = uniqueEmail();
  const name = unique('Member');
  const roleId = typeof role === 'number' ? role : await builtinRoleId(db, role);
  const user = await User.query(db).insertAndFetch({ email, name, password_hash: await passwordHash, email_verified_at: new Date() });
  await trustDevice(db, user.id);
  await db('memberships').insert({ team_id: team.teamId, user_id: user.id, role_id: roleId, status });
  return { userId: user.id, teamId: team.teamId, email, password: DEFAULT_PASSWORD, name, teamName: team.teamName };
}

/** Adds an existing user to another team too; the returned user signs in to that team. */
export async function joinTeam(db: Db, user: TestUser, team: { teamId: number; teamName: string }, role: string): Promise<TestUser> {
  await db('memberships').insert({ team_id: team.teamId, user_id: user.userId, role_id: await builtinRoleId(db, role), status: 'ACTIVE' });
  return { ...user, teamId: team.teamId, teamName: team.teamName };
}

/** PATCH/DELETE/POST with a bearer token. */
export function call(client: Client, method: string, path: string, token: string, json?: unknown): Promise<Reply> {
  return client.request(method, path, { ...bearer(token), ...(json === undefined ? {} : { json }) });
}

/** The `details.fields` of a 422 answer, by field name. */
export function failedFields(reply: Reply): string[] {
  return (reply.body.error.details.fields as Array<{ field: string }>).map((problem) => problem.field);
}
