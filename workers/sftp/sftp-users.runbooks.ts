import { SftpUser, type Operation } from '../../shared/db/models.ts';
import { SFTP_COMMAND_SECONDS, SFTP_REVOKE_COMMAND_SECONDS, type SftpOperationInput } from '../../shared/domains/sftp/sftp.operations.ts';
import { revokePayload } from '../../shared/domains/sftp/sftp-users.ts';
import { runAgentCommand } from '../agent/run-command.ts';
import type { WorkerDeps } from '../registry.ts';
import { StepFailed, type Runbook, type StepContext } from '../operations/runbook.ts';
import { environmentOf } from '../environments/environment-context.ts';
import { nodeEntryOf } from './node-entry.ts';

type SftpStep = StepContext<SftpOperationInput>;

async function userOf(step: SftpStep): Promise<SftpUser> {
  const user = await SftpUser.query(step.deps.db).findById(step.input.sftp_user_id);
  if (!user) throw new StepFailed('the SFTP user was deleted meanwhile (its environment went)', { permanent: true });
  return user;
}

/**
 * The user as it is now (password hash, keys) to the environment's node, jailed to its files and
 * working as the site's uid; `active` once the node has it. A user revoked meanwhile is not pushed
 * (and the node would refuse it anyway: a revoked name is never served again).
 */
async function pushUser(step: SftpStep): Promise<unknown> {
  const user = await userOf(step);
  if (user.status === 'revoked') {
    await step.log(`${user.username} was revoked meanwhile: nothing to push`);
    return { skipped: 'revoked' };
  }
  const { environment, node } = await environmentOf(step);
  const result = await runAgentCommand(step.deps, {
    operation: step.operation,
    step: 'push',
    nodeId: node.id,
    timeoutSeconds: SFTP_COMMAND_SECONDS,
    kind: 'sftp.users.put',
    payload: { users: [nodeEntryOf(user, environment)] },
  });
  if (result.refused.includes(user.username)) {
    // a name revoked on this node earlier (its row gone with its environment) is never served again
    throw new StepFailed(
      `Node ${node.name} refuses ${user.username}: that name was revoked there before and is never served again; create the user under another name`,
      { permanent: true },
    );
  }
  await SftpUser.query(step.deps.db).patch({ status: 'active', updated_at: new Date() }).where({ id: user.id, status: 'provisioning' });
  await step.log(`${user.username} served by node ${node.name} (${user.password_hash ? 'password' : 'no password'}, ${user.public_keys.length} public keys)`);
  return { username: user.username, node: node.name };
}

/** The node drops the user (queued by the API with the revocation): new logins refused, open sessions cut. */
async function revokeUser(step: SftpStep): Promise<unknown> {
  const user = await userOf(step);
  const { node } = await environmentOf(step);
  const result = await runAgentCommand(step.deps, {
    operation: step.operation,
    step: 'revoke',
    nodeId: node.id,
    timeoutSeconds: SFTP_REVOKE_COMMAND_SECONDS,
    waitSeconds: SFTP_COMMAND_SECONDS,
    kind: 'sftp.users.remove',
    payload: revokePayload(user),
  });
  await step.log(`${user.username} removed from node ${node.name}; ${result.sessions_closed} open sessions closed`);
  return { username: user.username, sessions_closed: result.sessions_closed };
}

/** A push that failed for good leaves the user `failed` (unless revoked meanwhile): its credentials may not be on the node. */
async function markFailed(deps: WorkerDeps, _operation: Operation, input: SftpOperationInput): Promise<void> {
  await SftpUser.query(deps.db).patch({ status: 'failed', updated_at: new Date() }).where({ id: input.sftp_user_id, status: 'provisioning' });
}

export const sftpProvisionRunbook: Runbook<'sftp.provision'> = { steps: { push: pushUser }, onFailed: markFailed };
export const sftpUpdateRunbook: Runbook<'sftp.update'> = { steps: { push: pushUser }, onFailed: markFailed };
export const sftpRevokeRunbook: Runbook<'sftp.revoke'> = { steps: { revoke: revokeUser } };
