import type { RequestHandler } from 'express';
import type { Context } from '../../shared/context.ts';
import { DocumentedRouter } from '../openapi/documented-router.ts';
import { apiTokensRoutes } from '../api-tokens/api-tokens.routes.ts';
import { activityRoutes } from '../activity/activity.routes.ts';
import { authLoginRoutes } from '../sessions/auth-login.routes.ts';
import { meRoutes } from '../sessions/me.routes.ts';
import { operationsRoutes } from '../operations/operations.routes.ts';
import { operationEventsRoutes } from '../operations/operation-events.routes.ts';
import { sitesRoutes } from '../sites/sites.routes.ts';
import { environmentsRoutes } from '../sites/environments.routes.ts';
import { edgeRoutes } from '../edge/edge.routes.ts';
import { logsRoutes } from '../logs/logs.routes.ts';
import { wordpressRoutes } from '../wordpress/wordpress.routes.ts';
import { wpCliRoutes } from '../wordpress/wp-cli.routes.ts';
import { nodesRoutes } from '../nodes/nodes.routes.ts';
import { sessionsRoutes } from '../sessions/sessions.routes.ts';
import { permissionsRoutes } from '../teams/permissions.routes.ts';
import { invitesRoutes } from '../teams/invites.routes.ts';
import { membersRoutes } from '../teams/members.routes.ts';
import { rolesRoutes } from '../teams/roles.routes.ts';
import { teamsRoutes } from '../teams/teams.routes.ts';
import { uploadsRoutes } from '../uploads/uploads.routes.ts';
import { backupSchedulesRoutes } from '../backups/backup-schedules.routes.ts';
import { dnsRoutes } from '../dns/dns.routes.ts';
import { domainsRoutes } from '../site-domains/site-domains.routes.ts';
import { certificatesRoutes } from '../certificates/certificates.routes.ts';
import { backupsRoutes } from '../backups/backups.routes.ts';
import { webhooksRoutes } from '../webhooks/webhooks.routes.ts';
import { sftpUsersRoutes } from '../sftp/sftp-users.routes.ts';
import { billingPlansRoutes } from '../billing/plans.routes.ts';
import { billingSubscriptionRoutes } from '../billing/subscription.routes.ts';
import { billingInvoicesRoutes } from '../billing/invoices.routes.ts';
import { billingCreditNotesRoutes } from '../billing/credit-notes.routes.ts';
import { billingStripeWebhookRoutes } from '../billing/stripe-webhook.routes.ts';
import { billingAddonsRoutes } from '../billing/addons.routes.ts';
import { billingSubscriptionAddonsRoutes } from '../billing/subscription-addons.routes.ts';
import { billingProfileRoutes } from '../billing/profile.routes.ts';

export const V1_PREFIX = '/v1';

/** Every /v1 answer is about one caller at one moment: never stored by a cache (applied in api/app.ts, before routing). */
export const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/** The general API (spec parts 2.8, 4.10, 5.4, 7.2, 8), mounted at /v1 (served through api/openapi/route-index.ts). */
export function v1Routes(ctx: Context): DocumentedRouter {
  const v1 = new DocumentedRouter();
  v1.include(authLoginRoutes(ctx)).include(sessionsRoutes(ctx));
  v1.include(teamsRoutes(ctx)).include(membersRoutes(ctx)).include(invitesRoutes(ctx)).include(rolesRoutes(ctx));
  v1.include(activityRoutes(ctx));
  v1.include(operationsRoutes(ctx)).include(operationEventsRoutes(ctx));
  v1.include(nodesRoutes(ctx));
  v1.include(sitesRoutes(ctx)).include(environmentsRoutes(ctx)).include(edgeRoutes(ctx)).include(wordpressRoutes(ctx)).include(wpCliRoutes(ctx));
  v1.include(logsRoutes(ctx));
  v1.include(backupsRoutes(ctx));
  v1.include(backupSchedulesRoutes(ctx));
  v1.include(dnsRoutes(ctx));
  v1.include(domainsRoutes(ctx));
  v1.include(certificatesRoutes(ctx));
  v1.include(sftpUsersRoutes(ctx));
  v1.include(uploadsRoutes(ctx));
  v1.include(webhooksRoutes(ctx));
  v1.include(billingPlansRoutes(ctx))
    .include(billingSubscriptionRoutes(ctx))
    .include(billingInvoicesRoutes(ctx))
    .include(billingCreditNotesRoutes(ctx))
    .include(billingStripeWebhookRoutes(ctx));
  v1.include(billingAddonsRoutes(ctx)).include(billingSubscriptionAddonsRoutes(ctx)).include(billingProfileRoutes(ctx));
  // The catalogue reads v1.docs at request time, after every include.
  return v1
    .include(meRoutes(ctx))
    .include(apiTokensRoutes(ctx))
    .include(permissionsRoutes(ctx, { prefix: V1_PREFIX, docs: () => v1.docs }));
}
