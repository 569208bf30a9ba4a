import type { Job } from 'bullmq';
import type { Config } from '../shared/config/config.ts';
import type { Db } from '../shared/db/knex.ts';
import { jobCatalogue, type JobName, type JobPayload } from '../shared/jobs/queues.ts';
import type { Logger } from '../shared/logger.ts';
import type { Queues } from '../shared/jobs/queues.ts';
import type { Signals } from '../shared/domains/agent/signals.ts';
import type { Mailer } from '../shared/mail/mailer.ts';
import { runOperationProcessor } from './operations/run.processor.ts';
import type { RunnableKind } from './operations/runbook.ts';
import { sweepOperations } from './operations/sweep.processor.ts';
import { tickBackupSchedules } from './backups/schedule-tick.processor.ts';
import { sweepBackupPrunes } from './backups/prune-sweep.processor.ts';
import { sweepCertificateRenewals } from './certificates/certificate-renewal.processor.ts';
import { sendEmailVerificationProcessor } from './mail/email-verification.processor.ts';
import { sendInviteProcessor } from './mail/invite.processor.ts';
import { sendPasswordResetProcessor } from './mail/password-reset.processor.ts';
import { sendDeviceCodeProcessor } from './mail/device-code.processor.ts';
import { sendLoginAlertProcessor } from './mail/login-alert.processor.ts';
import { sendConcurrentLoginProcessor } from './mail/concurrent-login.processor.ts';
import { deliverWebhookProcessor } from './webhooks/deliver.processor.ts';
import { sendWebhookDisabledProcessor } from './webhooks/disabled-mail.processor.ts';
import { sendInvoiceProcessor } from './mail/invoice.processor.ts';
import { sendCreditNoteProcessor } from './mail/credit-note.processor.ts';
import { sendDunningAttemptProcessor } from './mail/dunning-attempt.processor.ts';
import { sendDunningUnpaidProcessor } from './mail/dunning-unpaid.processor.ts';
import { dispatchWebhooks } from './webhooks/dispatch.processor.ts';
import { sweepBilling } from './billing/sweep.processor.ts';

/** What a processor may use. */
export type WorkerDeps = {
  db: Db;
  mailer: Mailer;
  logger: Logger;
  publicUrl: string;
  secretKey: Buffer;
  queues: Queues;
  operationKinds: ReadonlyMap<string, RunnableKind>;
  signals: Signals;
  config: Config;
};

export type Processor<Name extends JobName> = (deps: WorkerDeps, payload: JobPayload<Name>, job: Job, token?: string) => Promise<unknown>;

export type ProcessorEntry = { name: JobName; process: Processor<never> };

/** Every job name of shared/jobs with its one processor. */
export const processors: ProcessorEntry[] = [
  { name: 'mail.email-verification', process: sendEmailVerificationProcessor },
  { name: 'mail.password-reset', process: sendPasswordResetProcessor },
  { name: 'mail.invite', process: sendInviteProcessor },
  { name: 'mail.device-code', process: sendDeviceCodeProcessor },
  { name: 'mail.login-alert', process: sendLoginAlertProcessor },
  { name: 'mail.concurrent-login', process: sendConcurrentLoginProcessor },
  { name: 'mail.webhook-disabled', process: sendWebhookDisabledProcessor },
  { name: 'mail.invoice', process: sendInvoiceProcessor },
  { name: 'mail.credit-note', process: sendCreditNoteProcessor },
  { name: 'mail.dunning-attempt', process: sendDunningAttemptProcessor },
  { name: 'mail.dunning-unpaid', process: sendDunningUnpaidProcessor },
  { name: 'operation.run', process: runOperationProcessor },
  { name: 'operations.sweep', process: (deps: WorkerDeps) => sweepOperations(deps) },
  { name: 'backups.schedule-tick', process: (deps: WorkerDeps) => tickBackupSchedules(deps) },
  { name: 'backups.prune-sweep', process: (deps: WorkerDeps) => sweepBackupPrunes(deps) },
  { name: 'certificates.renewal-sweep', process: (deps: WorkerDeps) => sweepCertificateRenewals(deps) },
  { name: 'billing.sweep', process: (deps: WorkerDeps) => sweepBilling(deps) },
  { name: 'webhooks.dispatch', process: (deps: WorkerDeps) => dispatchWebhooks(deps) },
  { name: 'webhooks.deliver', process: deliverWebhookProcessor },
] as ProcessorEntry[];

/**
 * Refuses to start when a job has no processor or two, or a processor names an unknown job: the
 * mistake shows at boot, not when the first such job waits forever.
 */
export function checkRegistry(entries: ProcessorEntry[] = processors): Map<JobName, ProcessorEntry> {
  const byName = new Map<JobName, ProcessorEntry>();
  const problems: string[] = [];
  for (const entry of entries) {
    if (!(entry.name in jobCatalogue)) problems.push(`processor for unknown job ${entry.name}`);
    if (byName.has(entry.name)) problems.push(`job ${entry.name} has two processors`);
    byName.set(entry.name, entry);
  }
  for (const name of Object.keys(jobCatalogue) as JobName[]) {
    if (!byName.has(name)) problems.push(`job ${name} has no processor`);
  }
  if (problems.length > 0) throw new Error(`worker registry is inconsistent:\n  ${problems.join('\n  ')}`);
  return byName;
}
