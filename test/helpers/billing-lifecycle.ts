import { sweepSubscriptions, type SweepResult } from '../../shared/domains/billing/sweep-subscriptions.ts';
import type { Stack } from './stack.ts';
import { call } from './team-members.ts';

/**
 * The billing sweep at `now`, as the workers run it; for the named teams only when given. Tests that
 * move time far ahead name their own teams: test files share the database, and a sweep far in the
 * future would renew or expire other files' subscriptions under their feet.
 */
export function sweepAt(stack: Stack, now: Date, teamIds?: number[]): Promise<SweepResult> {
  return sweepSubscriptions(stack.ctx, stack.ctx.config.billing, { info: () => undefined }, now, { teamIds });
}

/** A webhook endpoint for billing events, so the team's events are written to the outbox. */
export async function listenToBilling(stack: Stack, token: string): Promise<void> {
  const reply = await call(stack.client(), 'POST', '/v1/webhooks', token, { url: 'http://127.0.0.1:9/hook', event_types: ['invoice.*', 'subscription.*'] });
  if (reply.status !== 201) throw new Error(`webhook endpoint refused: ${JSON.stringify(reply.body)}`);
}

/** The team's outbox as `{type, data}`, by transaction (the events of one share its timestamp: their order among them is not kept). */
export async function billingEvents(stack: Stack, teamId: number): Promise<Array<{ type: string; data: any }>> {
  const rows = (await stack.ctx.db('webhook_events').where({ team_id: teamId }).orderBy('created_at').select('type', 'body')) as Array<{
    type: string;
    body: string;
  }>;
  return rows.map((row) => ({ type: row.type, data: JSON.parse(row.body).data }));
}
