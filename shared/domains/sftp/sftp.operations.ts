import { z } from 'zod';
import { DEFAULT_DEADLINE_SECONDS, operationKind } from '../operations/operation-kind.ts';
import { environmentInput } from '../sites/sites.operations.ts';

/** The input of every SFTP operation. */
const sftpInput = environmentInput.extend({ sftp_user_id: z.number().int().positive() });
export type SftpOperationInput = z.infer<typeof sftpInput>;

/** A new SFTP user pushed to its environment's node, then `active`. */
export const sftpProvision = operationKind({ kind: 'sftp.provision', input: sftpInput, steps: [{ name: 'push' }], deadlineSeconds: DEFAULT_DEADLINE_SECONDS });
/** New credentials (password, keys) of an SFTP user pushed to its node. */
export const sftpUpdate = operationKind({ kind: 'sftp.update', input: sftpInput, steps: [{ name: 'push' }], deadlineSeconds: DEFAULT_DEADLINE_SECONDS });
/** An SFTP user removed from its node for good: refused at once, open sessions cut. */
export const sftpRevoke = operationKind({ kind: 'sftp.revoke', input: sftpInput, steps: [{ name: 'revoke' }], deadlineSeconds: DEFAULT_DEADLINE_SECONDS });

export const sftpOperations = [sftpProvision, sftpUpdate, sftpRevoke] as const;

/** How long a node has to take an SFTP user's change. */
export const SFTP_COMMAND_SECONDS = 120;
/**
 * A revocation waits this long for its node (offline, or busy with long commands): the database says
 * revoked at once, and the node must hear it whenever it comes back. Its operation waits only
 * SFTP_COMMAND_SECONDS and then fails saying the revocation is still queued.
 */
export const SFTP_REVOKE_COMMAND_SECONDS = 7 * 86_400;

/** SFTP operations of an environment run one at a time (a revoke after the provision it follows), apart from the site's. */
export function sftpKey(environmentId: number): string {
  return `sftp:${environmentId}`;
}
