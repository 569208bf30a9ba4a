import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { hashPassword } from '../../crypto/passwords.ts';
import type { Db } from '../../db/knex.ts';
import { type Environment, Node, SftpUser, type Operation, type SftpPublicKey } from '../../db/models.ts';
import { Conflict, NotFound, ValidationFailed } from '../../errors.ts';
import { insertAgentCommand } from '../agent/agent-commands.ts';
import { signalTopics, type Signals } from '../agent/signals.ts';
import { assertPasswordPolicy } from '../auth/identity.ts';
import type { OperationKind } from '../operations/operation-kinds.ts';
import { startOperation, type OperationDeps } from '../operations/operations.ts';
import { findEnvironment } from '../sites/environments.ts';
import { parsePublicKeys } from './public-keys.ts';
import { SFTP_REVOKE_COMMAND_SECONDS, sftpKey } from './sftp.operations.ts';
import { assertUsername, derivedUsername } from './usernames.ts';

/** At most this many SFTP users (revoked ones not counted) per environment. */
export const SFTP_USERS_PER_ENVIRONMENT = 20;
/** A generated password: 24 characters of base64url (144 bits). */
const GENERATED_PASSWORD_BYTES = 18;

type Actor = { teamId: number; userId: number };

/** What a client is told to connect to: the node's address and its SFTP server as the agent reports it. */
export type SftpConnection = { host: string; port: number | null; host_key: string | null; host_key_fingerprint: string | null };

/** Credentials as asked: a password given or generated, and public keys (the lines, checked). */
export type CredentialsInput = { password?: string | undefined; generate_password?: boolean | undefined; public_keys?: string[] | undefined };

type Credentials = { passwordHash?: string | null; publicKeys?: SftpPublicKey[]; shownPassword: string | null };

/**
 * The password and keys of a request, checked and hashed (outside any transaction: argon2 takes a
 * while). With neither a password nor keys, a password is generated; it is shown once, in the answer.
 */
async function credentialsOf(input: CredentialsInput, creating: boolean): Promise<Credentials> {
  if (input.password !== undefined && input.generate_password)
    throw ValidationFailed.field('generate_password', 'give a password or ask for one to be generated, not both');
  if (input.password !== undefined) assertPasswordPolicy(input.password);
  const publicKeys = input.public_keys === undefined ? undefined : parsePublicKeys(input.public_keys);
  const generate = input.generate_password === true || (creating && input.password === undefined && (publicKeys?.length ?? 0) === 0);
  const password = generate ? randomBytes(GENERATED_PASSWORD_BYTES).toString('base64url') : input.password;
  return {
    ...(password !== undefined ? { passwordHash: await hashPassword(password) } : {}),
    ...(publicKeys !== undefined ? { publicKeys } : {}),
    shownPassword: generate ? password! : null,
  };
}

export async function connectionOf(db: Db | Knex.Transaction, environment: Pick<Environment, 'node_id'>): Promise<SftpConnection> {
  const node = (await Node.query(db).findById(environment.node_id))!;
  return { host: node.public_address, port: node.sftp_port, host_key: node.sftp_host_key, host_key_fingerprint: node.sftp_host_key_fingerprint };
}

function startPush(
  trx: Knex.Transaction,
  deps: OperationDeps,
  actor: Actor,
  user: SftpUser,
  kind: Extract<OperationKind, `sftp.${string}`>,
): Promise<Operation> {
  return startOperation(
    trx,
    deps,
    kind,
    { site_id: user.site_id, environment_id: user.environment_id, sftp_user_id: user.id },
    {
      teamId: actor.teamId,
      target: { type: 'sftp_user', id: user.id },
      serialKeys: [sftpKey(user.environment_id)],
      createdByUserId: actor.userId,
    },
  );
}

export type CreateSftpUserInput = CredentialsInput & { username?: string | undefined };
export type SftpUserAnswer = { user: SftpUser; operation: Operation; password: string | null; connection: SftpConnection };

/**
 * A new SFTP user of the environment, `provisioning` until an `sftp.provision` operation has pushed
 * it to the node. The username is the one asked (unique platform-wide, else 409) or derived from
 * the site and environment.
 */
export async function createSftpUser(deps: OperationDeps, actor: Actor, siteId: number, kind: string, input: CreateSftpUserInput): Promise<SftpUserAnswer> {
  if (input.username !== undefined) assertUsername(input.username);
  await findEnvironment(deps.db, actor.teamId, siteId, kind); // 404 before any work on the password
  const credentials = await credentialsOf(input, true);
  return deps.db.transaction(async (trx) => {
    const { site, environment } = await findEnvironment(trx, actor.teamId, siteId, kind);
    if (environment.status !== 'active') throw new Conflict(`The ${environment.kind} environment is ${environment.status}, not active`);
    const count = await SftpUser.query(trx).where({ environment_id: environment.id }).whereNot('status', 'revoked').resultSize();
    if (count >= SFTP_USERS_PER_ENVIRONMENT) throw new Conflict(`An environment has at most ${SFTP_USERS_PER_ENVIRONMENT} SFTP users`);
    const username = input.username ?? derivedUsername(site.slug, environment.kind);
    if (await SftpUser.query(trx).findOne({ username })) throw new Conflict(`The SFTP username ${username} is taken`);
    const user = await SftpUser.query(trx)
      .insertAndFetch({
        team_id: actor.teamId,
        site_id: site.id,
        environment_id: environment.id,
        username,
        password_hash: credentials.passwordHash ?? null,
        public_keys: credentials.publicKeys ?? [],
        status: 'provisioning',
        created_by_user_id: actor.userId,
      })
      .catch((error: unknown) => {
        if ((error as { code?: string }).code === '23505') throw new Conflict(`The SFTP username ${username} is taken`);
        throw error;
      });
    const operation = await startPush(trx, deps, actor, user, 'sftp.provision');
    return { user, operation, password: credentials.shownPassword, connection: await connectionOf(trx, environment) };
  });
}

export async function listSftpUsers(db: Db, teamId: number, siteId: number, kind: string): Promise<{ users: SftpUser[]; connection: SftpConnection }> {
  const { environment } = await findEnvironment(db, teamId, siteId, kind);
  const users = await SftpUser.query(db).where({ environment_id: environment.id }).orderBy('id');
  return { users, connection: await connectionOf(db, environment) };
}

export async function findSftpUser(
  db: Db | Knex.Transaction,
  teamId: number,
  siteId: number,
  kind: string,
  id: number,
): Promise<{ user: SftpUser; environment: Environment }> {
  const { environment } = await findEnvironment(db, teamId, siteId, kind);
  const user = await SftpUser.query(db).findOne({ id, environment_id: environment.id });
  if (!user) throw new NotFound('No such SFTP user');
  return { user, environment };
}

export async function getSftpUser(db: Db, teamId: number, siteId: number, kind: string, id: number): Promise<{ user: SftpUser; connection: SftpConnection }> {
  const { user, environment } = await findSftpUser(db, teamId, siteId, kind, id);
  return { user, connection: await connectionOf(db, environment) };
}

/**
 * New credentials: a password (given or generated, shown once) and/or the whole list of public keys
 * (replacing the old one). Pushed by an `sftp.update` operation; a revoked user is 409.
 */
export async function updateSftpUser(
  deps: OperationDeps,
  actor: Actor,
  siteId: number,
  kind: string,
  id: number,
  input: CredentialsInput,
): Promise<SftpUserAnswer> {
  await findSftpUser(deps.db, actor.teamId, siteId, kind, id);
  if (input.password === undefined && !input.generate_password && input.public_keys === undefined)
    throw ValidationFailed.field('password', 'give a password, generate_password or public_keys');
  const credentials = await credentialsOf(input, false);
  return deps.db.transaction(async (trx) => {
    const { environment } = await findSftpUser(trx, actor.teamId, siteId, kind, id);
    const user = (await SftpUser.query(trx).findById(id).forUpdate())!;
    if (user.status === 'revoked') throw new Conflict('The SFTP user is revoked; create a new one');
    const passwordHash = credentials.passwordHash !== undefined ? credentials.passwordHash : user.password_hash;
    const publicKeys = credentials.publicKeys ?? user.public_keys;
    if (!passwordHash && publicKeys.length === 0) throw ValidationFailed.field('public_keys', 'an SFTP user without a password needs at least one public key');
    const updated = await SftpUser.query(trx).patchAndFetchById(id, {
      password_hash: passwordHash,
      public_keys: publicKeys,
      status: 'provisioning',
      updated_at: new Date(),
    });
    const operation = await startPush(trx, deps, actor, updated, 'sftp.update');
    return { user: updated, operation, password: credentials.shownPassword, connection: await connectionOf(trx, environment) };
  });
}

/**
 * Revokes the user in this transaction (refused by the API from now on, its hash dropped) and, in
 * the same transaction, queues the node's `sftp.users.remove` as the `sftp.revoke` operation's
 * command: the node's long-poll takes it as soon as this commits, without waiting for a worker.
 * The worker's step then waits for its outcome (the same command id). Revoked is final.
 */
export async function revokeSftpUser(
  deps: OperationDeps & { signals: Signals },
  actor: Actor,
  siteId: number,
  kind: string,
  id: number,
): Promise<{ user: SftpUser; operation: Operation }> {
  const { db } = deps;
  const outcome = await db.transaction(async (trx) => {
    const { environment } = await findSftpUser(trx, actor.teamId, siteId, kind, id);
    const current = (await SftpUser.query(trx).findById(id).forUpdate())!;
    if (current.status === 'revoked') throw new Conflict('The SFTP user is revoked already');
    const now = new Date();
    const user = await SftpUser.query(trx).patchAndFetchById(id, { status: 'revoked', revoked_at: now, password_hash: null, updated_at: now });
    const operation = await startPush(trx, deps, actor, user, 'sftp.revoke');
    await insertAgentCommand(trx, {
      id: revokeCommandId(operation.id),
      nodeId: environment.node_id,
      operationId: operation.id,
      kind: 'sftp.users.remove',
      payload: revokePayload(user),
      deadlineAt: new Date(now.getTime() + SFTP_REVOKE_COMMAND_SECONDS * 1000),
    });
    return { user, operation, nodeId: environment.node_id };
  });
  await deps.signals.publish(signalTopics.nodeHasWork(outcome.nodeId));
  return { user: outcome.user, operation: outcome.operation };
}

/** The command a revoke queues: its step's deterministic id (`<operation>:revoke`), so the worker finds it. */
export function revokeCommandId(operationId: string): string {
  return `${operationId}:revoke`;
}

export function revokePayload(user: Pick<SftpUser, 'id' | 'username'>): { users: Array<{ id: number; username: string }> } {
  return { users: [{ id: user.id, username: user.username }] };
}
