import { expect } from 'vitest';
import type { InvoiceRow } from '../../shared/domains/billing/rows.ts';
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

/** A fresh team subscribed to `plan` whose first invoice an operator has marked paid. */
export async function activeTeam(stack: Stack, operatorToken: string, plan = 'business') {
  const owner = await signedInOwner(stack);
  const chosen = await choosePlan(stack, owner.token, plan);
  expect(chosen.status, JSON.stringify(chosen.body)).toBe(201);
  expect((await markPaid(stack, operatorToken, chosen.body.data.invoice.id)).status).toBe(200);
  return { ...owner, invoiceId: chosen.body.data.invoice.id as number, subscriptionId: chosen.body.data.subscription.id as number };
}

/** The team's subscription as GET /v1/billing/subscription answers it to `token`. */
export async function subscriptionOf(stack: Stack, token: string): Promise<any> {
  return (await call(stack.client(), 'GET', '/v1/billing/subscription', token)).body.data;
}

/** An invoice as GET /v1/billing/invoices/{id} answers it to `token`. */
export async function invoiceOf(stack: Stack, token: string, id: number): Promise<any> {
  return (await call(stack.client(), 'GET', `/v1/billing/invoices/${id}`, token)).body.data;
}

/** An invoice's row. */
export function invoiceRow(stack: Stack, id: number): Promise<InvoiceRow> {
  return stack.ctx.db<InvoiceRow>('invoices').where({ id }).first() as Promise<InvoiceRow>;
}

/** An operator's credit note on an invoice. */
export function creditNote(stack: Stack, operatorToken: string, invoiceId: number, body: Record<string, unknown>): Promise<Reply> {
  return call(stack.client(), 'POST', `/v1/admin/billing/invoices/${invoiceId}/credit-notes`, operatorToken, body);
}
