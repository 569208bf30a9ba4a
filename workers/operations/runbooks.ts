import { backupCreateRunbook } from '../backups/backup-create.runbook.ts';
import { backupDeleteRunbook } from '../backups/backup-delete.runbook.ts';
import { backupRestoreRunbook } from '../backups/backup-restore.runbook.ts';
import { siteRestoreRunbook } from '../backups/site-restore.runbook.ts';
import { enrollRunbook } from '../nodes/enroll.runbook.ts';
import { reconcileRunbook } from '../nodes/reconcile.runbook.ts';
import { environmentPhpRunbook, environmentPushRunbook, environmentRestartRunbook } from '../sites/environment-change.runbooks.ts';
import { environmentCreateRunbook, siteCloneRunbook } from '../sites/environment-copy.runbook.ts';
import { environmentDomainsRunbook } from '../sites/environment-domains.runbook.ts';
import { certificateInstallRunbook } from '../sites/certificate-install.runbook.ts';
import { certificateIssueRunbook } from '../sites/certificate-issue.runbook.ts';
import { environmentDeleteRunbook, siteDeleteRunbook } from '../sites/environment-removal.runbooks.ts';
import { siteCreateRunbook } from '../sites/site-create.runbook.ts';
import { sftpRunbooks } from '../sftp/sftp-users.runbooks.ts';
import { wordpressRunbooks } from '../wordpress/wordpress-change.runbooks.ts';
import type { Runbook } from './runbook.ts';

/** Every kind of operation the workers carry out, with its runbook. Each issue's domain adds its own. */
export const runbooks: Runbook[] = [
  enrollRunbook,
  reconcileRunbook,
  siteCreateRunbook,
  siteCloneRunbook,
  siteDeleteRunbook,
  environmentCreateRunbook,
  environmentDeleteRunbook,
  environmentPushRunbook,
  environmentPhpRunbook,
  environmentRestartRunbook,
  environmentDomainsRunbook,
  certificateInstallRunbook,
  certificateIssueRunbook,
  ...wordpressRunbooks,
  backupCreateRunbook,
  backupRestoreRunbook,
  siteRestoreRunbook,
  backupDeleteRunbook,
  ...sftpRunbooks,
];

/** One runbook per kind, each with uniquely named steps; checked when the workers start. */
export function indexRunbooks(list: readonly Runbook[]): Map<string, Runbook> {
  const byKind = new Map<string, Runbook>();
  for (const runbook of list) {
    if (byKind.has(runbook.kind)) throw new Error(`operation kind ${runbook.kind} has two runbooks`);
    if (runbook.steps.length === 0) throw new Error(`runbook ${runbook.kind} has no steps`);
    const names = runbook.steps.map((step) => step.name);
    if (new Set(names).size !== names.length) throw new Error(`runbook ${runbook.kind} names a step twice`);
    if (runbook.steps.some((step) => typeof step.run !== 'function')) throw new Error(`runbook ${runbook.kind} has a step without a function`);
    byKind.set(runbook.kind, runbook);
  }
  return byKind;
}
