import type { EndpointRow } from '../../shared/domains/webhooks/endpoint-rows.ts';
import { webhookDisabledMail } from '../../shared/mail/templates.ts';
import type { Processor } from '../registry.ts';

/** The team's active owners learn that an endpoint was disabled, and why. */
export const sendWebhookDisabledProcessor: Processor<'mail.webhook-disabled'> = async (deps, payload) => {
  const endpoint = (await deps.db('webhook_endpoints').where({ id: payload.endpointId }).first()) as EndpointRow | undefined;
  if (!endpoint || endpoint.enabled || (endpoint.disabled_reason !== 'gone' && endpoint.disabled_reason !== 'failing')) return { sent: 0 };
  const team = (await deps.db('teams').where({ id: endpoint.team_id }).first('name')) as { name: string };
  const owners = (await deps
    .db('memberships as m')
    .join('roles as r', 'r.id', 'm.role_id')
    .join('users as u', 'u.id', 'm.user_id')
    .where({ 'm.team_id': endpoint.team_id, 'm.status': 'ACTIVE', 'r.name': 'owner' })
    .whereNull('r.team_id')
    .select('u.email')) as Array<{ email: string }>;
  // the panel's page of the endpoint, where it is enabled again (never the API's URL)
  const link = new URL(`/webhooks/${endpoint.id}`, deps.publicUrl).toString();
  for (const owner of owners) await deps.mailer.send(webhookDisabledMail(owner.email, team.name, endpoint.url, endpoint.disabled_reason, link));
  return { sent: owners.length };
};
