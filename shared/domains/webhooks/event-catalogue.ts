import { z } from 'zod';

/**
 * Every event a webhook can receive. A body is `{type, timestamp, data}` (the Standard Webhooks
 * shape); `data` is described here, once, for the OpenAPI document's `webhooks` section and for the
 * API that lists the types.
 *
 * Long work reports its outcome: every operation of a team ends with `operation.succeeded`,
 * `operation.failed` or `operation.cancelled`, and the kinds below also with a named event
 * (`site.created`, `backup.completed`...), or `<kind>_failed` when they fail (`backup.create_failed`).
 */

const operationData = z.object({
  operation: z.object({
    id: z.uuid(),
    kind: z.string().describe("The operation's kind, e.g. `site.create`"),
    status: z.enum(['succeeded', 'failed', 'cancelled']),
    target: z.object({ type: z.string(), id: z.string() }).describe('What it worked on, e.g. `{"type":"environment","id":"42"}`'),
    error: z.object({ step: z.string().nullable(), message: z.string() }).nullable().describe('Which step failed and why; null unless failed'),
    created_at: z.string(),
    finished_at: z.string(),
  }),
});
export type OperationEventData = z.infer<typeof operationData>;

const domainData = z.object({
  domain: z.object({ id: z.number().int(), name: z.string(), status: z.enum(['pending', 'verified', 'lapsed', 'superseded']) }),
  site_id: z.number().int(),
  environment_id: z.number().int(),
});

const memberData = z.object({ member: z.object({ user_id: z.number().int(), email: z.string(), role: z.string().nullable() }) });

const nodeData = z.object({
  node: z.object({ id: z.uuid(), status: z.enum(['offline', 'online']) }),
  environment_ids: z.array(z.number().int()).describe("The team's environments on the node"),
});

const siteData = z.object({ site: z.object({ id: z.number().int(), name: z.string() }) });

const testData = z.object({ endpoint_id: z.number().int(), message: z.string() });

const apiTokenData = z.object({
  api_token: z.object({
    id: z.number().int(),
    name: z.string(),
    prefix: z.string().describe('The start of the token as the panel shows it (never the secret)'),
    permissions: z.array(z.string()),
    expires_at: z.string().nullable(),
    created_by_user_id: z.number().int(),
  }),
  reason: z.enum(['created', 'revoked', 'password_reset']).describe('`password_reset`: revoked with every token of a user who reset their password'),
});
export type ApiTokenEventData = z.infer<typeof apiTokenData>;

const dnsZoneData = z.object({ zone: z.object({ id: z.number().int(), name: z.string() }) });

const dnsRecordSetData = dnsZoneData.extend({
  record_set: z.object({
    name: z.string(),
    type: z.string(),
    ttl: z.number().int().nullable(),
    values: z.array(z.string()).describe('Empty when the set was deleted'),
  }),
});

const invoiceData = z.object({
  invoice: z.object({
    id: z.number().int(),
    number: z.string(),
    status: z.enum(['open', 'paid', 'void', 'uncollectible']),
    currency: z.string(),
    total_minor: z.number().int().describe('In integer minor units of `currency`'),
    subscription_id: z.number().int().nullable(),
  }),
});
export type InvoiceEventData = z.infer<typeof invoiceData>;

const invoicePaymentFailedData = invoiceData.extend({
  attempt: z.object({
    number: z.number().int().describe('Its place in the dunning schedule (BILLING_DUNNING_SCHEDULE_DAYS), from 1'),
    reason: z.string().describe("Why the charge failed, in the provider's words (a decline message, or `no saved card`)"),
    next_attempt_at: z.string().nullable().describe('When the charge is tried again; null after the last attempt'),
  }),
});
export type InvoicePaymentFailedEventData = z.infer<typeof invoicePaymentFailedData>;

const creditNoteData = z.object({
  credit_note: z.object({
    id: z.number().int(),
    number: z.string().describe('Gapless per year in its own series: <prefix>-CN-<year>-<sequence>'),
    invoice_id: z.number().int(),
    invoice_number: z.string(),
    currency: z.string(),
    amount_minor: z.number().int().describe('Credited, tax included, in integer minor units of `currency`'),
    tax_minor: z.number().int().describe('The part of it that is tax'),
    reason: z.string(),
    refund_status: z
      .enum(['pending', 'refunded', 'failed', 'not_applicable'])
      .describe(
        'How the money goes back: through the provider (`pending` until it confirms), or `not_applicable` (bank transfer by the operator, or credited without a refund)',
      ),
  }),
});
export type CreditNoteEventData = z.infer<typeof creditNoteData>;

const invoiceDisputeData = invoiceData.extend({
  dispute: z.object({
    id: z.number().int(),
    amount_minor: z.number().int().describe('What the card holder disputes, in integer minor units of `currency`'),
    currency: z.string(),
    reason: z.string().describe("Stripe's reason, e.g. `fraudulent`"),
    status: z.string().describe("Stripe's status: `needs_response`, `under_review`... while open; `won` or `lost` once closed"),
  }),
});
export type InvoiceDisputeEventData = z.infer<typeof invoiceDisputeData>;

const subscriptionData = z.object({
  subscription: z.object({
    id: z.number().int(),
    status: z.enum(['incomplete', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'paused']),
    plan: z.string().describe("The plan's code"),
    cancel_at_period_end: z.boolean(),
    current_period_end: z.string(),
    addons: z
      .array(
        z.object({
          code: z.string(),
          quantity: z.number().int(),
          pending_quantity: z.number().int().nullable().describe('A decrease taking effect at the renewal (0: removed then)'),
        }),
      )
      .describe('The add-ons it holds'),
    trial_end: z.string().nullable().describe('The end of its trial, if it started with one'),
    ended_reason: z.enum(['canceled', 'trial_canceled', 'incomplete_expired']).nullable().describe('Why a `canceled` subscription ended; null otherwise'),
  }),
});
export type SubscriptionEventData = z.infer<typeof subscriptionData>;

/** Operation kinds whose success has a name of its own (their failure is `<kind>_failed`). */
export const OPERATION_EVENTS: Readonly<Record<string, string>> = {
  'site.create': 'site.created',
  'site.clone': 'site.cloned',
  'site.delete': 'site.deleted',
  'site.restore': 'site.restored',
  'environment.create': 'environment.created',
  'environment.delete': 'environment.deleted',
  'environment.push': 'environment.pushed',
  'environment.php_change': 'environment.php_changed',
  'environment.restart': 'environment.restarted',
  'environment.domains': 'environment.domains_updated',
  'certificate.issue': 'certificate.issued',
  'certificate.install': 'certificate.installed',
  'backup.create': 'backup.completed',
  'backup.restore': 'backup.restored',
  'backup.delete': 'backup.deleted',
  'wordpress.plugin_install': 'wordpress.plugin_installed',
  'wordpress.plugin_activate': 'wordpress.plugin_activated',
  'wordpress.plugin_deactivate': 'wordpress.plugin_deactivated',
  'wordpress.plugin_delete': 'wordpress.plugin_deleted',
  'wordpress.theme_install': 'wordpress.theme_installed',
  'wordpress.theme_activate': 'wordpress.theme_activated',
  'wordpress.theme_delete': 'wordpress.theme_deleted',
  'sftp.provision': 'sftp_user.created',
  'sftp.update': 'sftp_user.updated',
  'sftp.revoke': 'sftp_user.revoked',
};

type EventType = { description: string; data: z.ZodType };

function operationEvents(): Record<string, EventType> {
  const events: Record<string, EventType> = {
    'operation.succeeded': { description: 'Any operation of the team succeeded.', data: operationData },
    'operation.failed': { description: 'Any operation of the team failed; `operation.error` says which step and why.', data: operationData },
    'operation.cancelled': { description: 'Any operation of the team was cancelled.', data: operationData },
  };
  for (const [kind, succeeded] of Object.entries(OPERATION_EVENTS)) {
    events[succeeded] = { description: `A \`${kind}\` operation succeeded.`, data: operationData };
    events[`${kind}_failed`] = { description: `A \`${kind}\` operation failed; \`operation.error\` says which step and why.`, data: operationData };
  }
  return events;
}

export const EVENT_TYPES: Readonly<Record<string, EventType>> = {
  ...operationEvents(),
  'site.renamed': { description: 'A site was given a new name.', data: siteData },
  'domain.added': {
    description: 'A custom domain was added to an environment (pending until verified, unless in a zone the team hosts here).',
    data: domainData,
  },
  'domain.verified': { description: 'A custom domain was verified; an `environment.domains` operation puts it on the edge.', data: domainData },
  'domain.removed': { description: 'A custom domain was removed from an environment.', data: domainData },
  'member.joined': { description: 'A user joined the team through an invitation.', data: memberData },
  'member.role_changed': { description: 'A member was given another role.', data: memberData },
  'member.removed': { description: 'A member was removed from the team.', data: memberData },
  'node.offline': {
    description:
      "A node that runs some of the team's environments stopped reporting (no heartbeat for 45 s): its sites may be down. Sent within seconds of that.",
    data: nodeData,
  },
  'node.online': { description: 'That node reports again.', data: nodeData },
  'api_token.created': { description: 'An API token was created in the team (its secret is never sent).', data: apiTokenData },
  'api_token.revoked': { description: "An API token of the team was revoked: by a member, or with its user's password reset (`reason`).", data: apiTokenData },
  'dns_zone.created': { description: 'A DNS zone is hosted for the team.', data: dnsZoneData },
  'dns_zone.deleted': { description: 'A DNS zone of the team was deleted, with its records.', data: dnsZoneData },
  'dns_record_set.written': { description: "A record set of one of the team's zones was created or replaced.", data: dnsRecordSetData },
  'dns_record_set.deleted': { description: "A record set of one of the team's zones was deleted.", data: dnsRecordSetData },
  'webhook.test': { description: 'Sent by `POST /v1/webhooks/{id}/test`, to this endpoint only.', data: testData },
  'invoice.finalized': { description: 'An invoice was finalized: numbered, open, owed (first period, renewal, upgrade).', data: invoiceData },
  'invoice.paid': { description: 'An invoice was paid.', data: invoiceData },
  'invoice.payment_failed': {
    description: 'A dunning attempt to charge an overdue invoice failed; it stays open, and `attempt.next_attempt_at` says when it is tried again.',
    data: invoicePaymentFailedData,
  },
  'invoice.voided': { description: 'An invoice was voided: it is owed no more.', data: invoiceData },
  'invoice.marked_uncollectible': { description: 'An invoice was written off (it can still be paid).', data: invoiceData },
  'invoice.disputed': {
    description: 'The card holder disputed the payment of a paid invoice with their bank (a Stripe chargeback).',
    data: invoiceDisputeData,
  },
  'invoice.dispute_closed': {
    description:
      'A dispute was closed: `dispute.status` is `won` (the money stays) or `lost` (it went back to the card holder; the invoice records the amount as lost).',
    data: invoiceDisputeData,
  },
  'credit_note.issued': {
    description: 'A credit note was issued for a paid invoice (in full or in part); the invoice stays `paid`, and `amount_credited_minor` grows.',
    data: creditNoteData,
  },
  'subscription.created': {
    description:
      'The team chose a plan: its subscription starts `trialing` (its first trial on a plan with one) or `incomplete` until the first invoice is paid.',
    data: subscriptionData,
  },
  'subscription.updated': {
    description:
      "The subscription changed: its status (active, past_due, unpaid, paused at a trial's end), its plan, its add-ons, its period (a renewal, a trial's end, a resumption), or `cancel_at_period_end`.",
    data: subscriptionData,
  },
  'subscription.canceled': {
    description: "The subscription ended (`ended_reason`: canceled, trial_canceled, incomplete_expired); the team's plan limits are withdrawn.",
    data: subscriptionData,
  },
};

export const EVENT_TYPE_NAMES: readonly string[] = Object.keys(EVENT_TYPES).sort();

/** A type of the catalogue, or a `<group>.*` naming at least one. */
export function isKnownEventFilter(filter: string): boolean {
  if (filter.endsWith('.*')) return EVENT_TYPE_NAMES.some((type) => type.startsWith(filter.slice(0, -1)));
  return filter in EVENT_TYPES;
}

/** Whether an endpoint subscribed to `filters` (none: everything) receives `type`; `webhook.test` is asked for by name only. */
export function eventMatches(filters: readonly string[], type: string): boolean {
  if (filters.length === 0) return true;
  return filters.some((filter) => filter === type || (filter.endsWith('.*') && type.startsWith(filter.slice(0, -1))));
}

/** The events an operation's end raises: the generic one, and the kind's own when it has one. */
export function operationEventTypes(kind: string, status: 'succeeded' | 'failed' | 'cancelled'): string[] {
  const types = [`operation.${status}`];
  const named = OPERATION_EVENTS[kind];
  if (named && status === 'succeeded') types.push(named);
  if (named && status === 'failed') types.push(`${kind}_failed`);
  return types;
}
