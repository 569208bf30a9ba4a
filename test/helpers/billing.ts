import type { Reply } from './client.ts';
import { accessTokenOf, createOwner, type TestUser } from './factories.ts';
import type { Stack } from './stack.ts';
import { call } from './team-members.ts';

/** An operator (platform_role) signed in with a session: operator routes refuse API tokens. */
export async function signedInOperator(stack: Stack): Promise<{ user: TestUser; token: string }> {
  const user = await createOwner(stack.ctx.db);
  await stack.ctx.db('users').where({ id: user.userId }).update({ platform_role: 'operator' });
  return { user, token: await accessTokenOf(stack.client(), user) };
}

/** A fresh owner and their bearer token. */
export async function signedInOwner(stack: Stack): Promise<{ user: TestUser; token: string }> {
  const user = await createOwner(stack.ctx.db);
  return { user, token: await accessTokenOf(stack.client(), user) };
}

/** Chooses a plan without its trial unless asked (starter and business have one): most tests pay the first invoice. */
export function choosePlan(stack: Stack, token: string, plan: string, options: { trial?: boolean } = {}): Promise<Reply> {
  return call(stack.client(), 'POST', '/v1/billing/subscription', token, { plan, trial: options.trial ?? false });
}

export function markPaid(stack: Stack, operatorToken: string, invoiceId: number, reference?: string): Promise<Reply> {
  return call(stack.client(), 'POST', `/v1/billing/invoices/${invoiceId}/mark-paid`, operatorToken, reference === undefined ? {} : { reference });
}

/** The team's entitlements row as site creation reads it (undefined: no plan). */
export function entitlementsRow(stack: Stack, teamId: number): Promise<Record<string, unknown> | undefined> {
  return stack.ctx.db('team_entitlements').where({ team_id: teamId }).first();
}
