import type { StepPlan } from '../operations/operations.ts';

/** A new SFTP user pushed to its environment's node, then `active`. */
export const SFTP_PROVISION_KIND = 'sftp.provision';
/** New credentials (password, keys) of an SFTP user pushed to its node. */
export const SFTP_UPDATE_KIND = 'sftp.update';
/** An SFTP user removed from its node for good: refused at once, open sessions cut. */
export const SFTP_REVOKE_KIND = 'sftp.revoke';

export const SFTP_PUSH_STEPS: readonly StepPlan[] = [{ name: 'push' }];
export const SFTP_REVOKE_STEPS: readonly StepPlan[] = [{ name: 'revoke' }];

/** How long a node has to take an SFTP user's change. */
export const SFTP_COMMAND_SECONDS = 120;
/**
 * A revocation waits this long for its node (offline, or busy with long commands): the database says
 * revoked at once, and the node must hear it whenever it comes back. Its operation waits only
 * SFTP_COMMAND_SECONDS and then fails saying the revocation is still queued.
 */
export const SFTP_REVOKE_COMMAND_SECONDS = 7 * 86_400;

/** The input of every SFTP operation. */
export type SftpOperationInput = { site_id: number; environment_id: number; sftp_user_id: number };

/** SFTP operations of an environment run one at a time (a revoke after the provision it follows), apart from the site's. */
export function sftpKey(environmentId: number): string {
  return `sftp:${environmentId}`;
}
