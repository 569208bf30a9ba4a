import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client, Reply } from '../../helpers/client.ts';
import { DEFAULT_PASSWORD, unique, uniqueEmail } from '../../helpers/factories.ts';
import { tokenIn, type ReceivedMail } from '../../helpers/mailbox.ts';
import { signedInOperator } from '../../helpers/billing.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { sweepSubscriptions } from '../../../shared/domains/billing/sweep-subscriptions.ts';
import { call } from '../../helpers/team-members.ts';

/**
 * Door A end to end, through HTTP and the mails only: register an owner, verify the e-mail, approve
 * the new device, sign in (the panel's cookie session); site creation answers 402; choose a plan →
 * subscription incomplete, still 402; an operator marks the bank transfer's invoice paid → active,
 * the plan's entitlements apply, and site creation gets past the plan check (to the placement,
 * which answers 409 here: no node serves the region asked for, and no node is needed to prove it).
 * The second path takes the plan's trial: site creation is unlocked at once, and the trial's end
 * (the billing sweep, run here at that instant for this team) mails the first invoice.
 */
const AUTH = '/api/v1/auth';
const FINGERPRINT = 'd'.repeat(64);
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ env: { BILLING_TAX_RATE_BPS: '2100' } }); // workers on: they send the mails
});
afterAll(async () => {
  await stack?.stop();
});

async function mailTo(to: string, subject: RegExp): Promise<ReceivedMail> {
  return stack.mailbox.waitFor(to, subject);
}

/** Register-owner, verify, approve the device, session exchange: a signed-in panel client. */
async function registerAndSignIn(email: string): Promise<{ client: Client; teamId: number }> {
  const client = stack.client();
  const registered = await client.post(`${AUTH}/register-owner`, {
    email,
    password: DEFAULT_PASSWORD,
    name: 'Ada Owner',
    team_name: 'Ada Studio',
    team_slug: unique('ada'),
  });
  expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  const teamId = registered.body.team_id as number;
  expect((await client.post(`${AUTH}/email/verification/confirm`, { token: tokenIn(await mailTo(email, /^Verify your e-mail address/)) })).status).toBe(200);

  const login = await client.post(`${AUTH}/login`, { email, password: DEFAULT_PASSWORD, remember_me: false });
  expect(login.status).toBe(200);
  const preAuthToken = login.body.pre_auth_token as string;
  expect((await client.post(`${AUTH}/device/challenge`, { pre_auth_token: preAuthToken, device_fingerprint: FINGERPRINT })).status).toBe(200);
  const code = (await mailTo(email, /sign-in code/)).text.match(/Code: (\d{6})/)![1]!;
  expect((await client.post(`${AUTH}/device/approve`, { pre_auth_token: preAuthToken, device_fingerprint: FINGERPRINT, otp_code: code })).status).toBe(200);
  const exchange = await client.post(`${AUTH}/session-exchange`, {
    pre_auth_token: preAuthToken,
    team_id: teamId,
    session_info: { device_fingerprint: FINGERPRINT, ip: '203.0.113.7', user_agent: 'vitest', geo: { city: 'Lisbon', country: 'PT' } },
  });
  expect(exchange.status, JSON.stringify(exchange.body)).toBe(200);
  return { client, teamId };
}

function createSite(client: Client): Promise<Reply> {
  return client.post('/v1/sites', {
    name: 'Ada Studio',
    region: unique('nowhere'),
    php_version: '8.2',
    wordpress: { title: 'Ada Studio', admin_user: 'ada', admin_email: 'ada@example.test' },
  });
}

describe('Door A: register, choose a plan, pay, create sites', () => {
  it('unlocks site creation once the first invoice is paid', async () => {
    const email = uniqueEmail();
    const { client, teamId } = await registerAndSignIn(email);

    const refused = await createSite(client);
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({ code: 'PAYMENT_REQUIRED', details: { limit: 'plan' } });
    expect((await client.get('/v1/entitlements')).status).toBe(404);

    const plans = await client.get('/v1/billing/plans');
    expect(plans.status).toBe(200);
    const business = plans.body.data.find((plan: { code: string }) => plan.code === 'business');
    expect(business).toMatchObject({ price_minor: 4900, currency: 'EUR', entitlements: { max_sites: 5 } });

    // This team skips business's 14-day trial: it pays before it gets anything.
    const chosen = await client.post('/v1/billing/subscription', { plan: 'business', trial: false });
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(201);
    expect(chosen.body.data.subscription.status).toBe('incomplete');
    const invoice = chosen.body.data.invoice;
    expect(invoice).toMatchObject({ status: 'open', subtotal_minor: 4900, tax_minor: 1029, total_minor: 5929 });
    expect(chosen.body.data.payment.instructions).toContain(invoice.number);
    expect((await createSite(client)).status).toBe(402);

    // The transfer arrives: an operator finds the team's open invoice and marks it paid.
    const operator = (await signedInOperator(stack)).token;
    const open = await call(stack.client(), 'GET', `/v1/admin/billing/invoices?status=open&team_id=${teamId}`, operator);
    expect(open.body.data.map((row: { number: string }) => row.number)).toEqual([invoice.number]);
    const paid = await call(stack.client(), 'POST', `/v1/billing/invoices/${invoice.id}/mark-paid`, operator, { reference: `transfer ${invoice.number}` });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);

    expect((await client.get('/v1/billing/subscription')).body.data).toMatchObject({ status: 'active', plan: { code: 'business' } });
    expect((await client.get(`/v1/billing/invoices/${invoice.id}`)).body.data).toMatchObject({ status: 'paid', number: invoice.number });
    expect((await client.get('/v1/entitlements')).body.data).toMatchObject({
      team_id: teamId,
      plan: 'business',
      max_sites: 5,
      environment_memory_bytes: 1024 ** 3,
    });

    const unlocked = await createSite(client);
    expect(unlocked.status, JSON.stringify(unlocked.body)).toBe(409); // past the plan: no node serves that region
    expect(unlocked.body.error.message).toMatch(/No node in region/);
  });

  it('unlocks site creation at once with a trial, and mails the first invoice when the trial ends', async () => {
    const email = uniqueEmail();
    const { client, teamId } = await registerAndSignIn(email);
    expect((await createSite(client)).status).toBe(402);

    const chosen = await client.post('/v1/billing/subscription', { plan: 'business' });
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(201);
    expect(chosen.body.data).toMatchObject({ subscription: { status: 'trialing', trial_end: expect.any(String) }, invoice: null, payment: null });
    expect((await client.get('/v1/entitlements')).body.data).toMatchObject({ plan: 'business', max_sites: 5 });
    expect((await createSite(client)).status).toBe(409); // past the plan: no node serves that region
    expect((await client.get('/v1/billing/invoices')).body.pagination.total).toBe(0);

    const trialEnd = new Date(chosen.body.data.subscription.trial_end);
    await sweepSubscriptions(stack.ctx, stack.ctx.config.billing, { info: () => undefined }, trialEnd, { teamIds: [teamId] });
    const [invoice] = (await client.get('/v1/billing/invoices')).body.data;
    expect(invoice).toMatchObject({ status: 'open', total_minor: 5929, period_start: trialEnd.toISOString() });
    expect((await mailTo(email, /^Invoice BTH-/)).subject).toContain(invoice.number);
    expect((await client.get('/v1/billing/subscription')).body.data).toMatchObject({ status: 'active', billing_anchor: trialEnd.toISOString() });

    const operator = (await signedInOperator(stack)).token;
    expect((await call(stack.client(), 'POST', `/v1/billing/invoices/${invoice.id}/mark-paid`, operator, {})).body.data.subscription.status).toBe('active');
    expect((await createSite(client)).status).toBe(409);
  });
});
