import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { choosePlan, markPaid, signedInOperator, signedInOwner } from '../../helpers/billing.ts';
import { accessTokenOf } from '../../helpers/factories.ts';
import { pdfText } from '../../helpers/pdf-text.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { addMember, call } from '../../helpers/team-members.ts';

/**
 * The invoice PDF (pdfkit), mailed on finalization to the team's owners and billing members by the
 * workers, and served at /v1/billing/invoices/{id}/pdf; its text read back without pdfkit.
 */
let stack: Stack;
let operator = '';

beforeAll(async () => {
  stack = await startStack({ env: { BILLING_TAX_RATE_BPS: '2000', BILLING_SELLER_NAME: 'Berth Hosting Ltd' } });
  operator = (await signedInOperator(stack)).token;
});
afterAll(async () => {
  await stack?.stop();
});

describe('the invoice PDF', () => {
  it('is mailed to the owners and billing members when the invoice is finalized, and says what the invoice says', async () => {
    const owner = await signedInOwner(stack);
    const team = { teamId: owner.user.teamId, teamName: owner.user.teamName };
    const billing = await addMember(stack.ctx.db, team, 'billing');
    const developer = await addMember(stack.ctx.db, team, 'developer');
    const invoice = (await choosePlan(stack, owner.token, 'business')).body.data.invoice;

    const subject = new RegExp(`^Invoice ${invoice.number} from Berth: €58\\.80$`);
    const mail = await stack.mailbox.waitFor(owner.user.email, subject);
    await stack.mailbox.waitFor(billing.email, subject);
    expect(stack.mailbox.to(developer.email)).toEqual([]);
    expect(mail.text).toContain(`Pay by bank transfer with the reference ${invoice.number}`);
    expect(mail.attachments).toHaveLength(1);
    const [pdf] = mail.attachments;
    expect(pdf).toMatchObject({ filename: `${invoice.number}.pdf`, contentType: 'application/pdf' });
    expect(pdf!.content.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf!.content);
    expect(text).toEqual(
      expect.arrayContaining([
        `Invoice ${invoice.number}`,
        'From: Berth Hosting Ltd',
        `Billed to: ${owner.user.teamName}`,
        'Status: open',
        'Subtotal',
        '€49.00',
        'Tax 20 % on €49.00',
        '€9.80',
        'Total',
        '€58.80',
      ]),
    );
    expect(text.some((line) => line.startsWith('Business plan, '))).toBe(true);
    expect(text.join(' ')).toContain('Pay by bank transfer');
  });

  it('is served to the team (billing:read) as it is now: paid, without payment instructions; 404 to other teams', async () => {
    const owner = await signedInOwner(stack);
    const invoice = (await choosePlan(stack, owner.token, 'starter')).body.data.invoice;
    await markPaid(stack, operator, invoice.id);
    const reply = await call(stack.client(), 'GET', `/v1/billing/invoices/${invoice.id}/pdf`, owner.token);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/pdf');
    expect(reply.headers.get('content-disposition')).toBe(`attachment; filename="${invoice.number}.pdf"`);
    const text = pdfText(reply.bytes);
    expect(text.some((line) => /^Status: paid \(paid \d{4}-\d{2}-\d{2}\)$/.test(line))).toBe(true);
    expect(text.join(' ')).not.toContain('bank transfer');
    expect(text).toContain('€18.00');

    const stranger = await signedInOwner(stack);
    expect((await call(stack.client(), 'GET', `/v1/billing/invoices/${invoice.id}/pdf`, stranger.token)).status).toBe(404);
    const developer = await accessTokenOf(
      stack.client(),
      await addMember(stack.ctx.db, { teamId: owner.user.teamId, teamName: owner.user.teamName }, 'developer'),
    );
    expect((await call(stack.client(), 'GET', `/v1/billing/invoices/${invoice.id}/pdf`, developer)).status).toBe(403);
  });

  it('prints names outside Latin-1 as they are written (DejaVu Sans: Latin Extended, Greek, Cyrillic; no CJK), on the invoice and its credit note', async () => {
    const owner = await signedInOwner(stack);
    const profile = {
      legal_name: 'Żółć Łódź sp. z o.o. / Ελληνική Α.Ε.',
      address_line1: 'ul. Piotrkowska 12',
      address_line2: 'Οδός Ερμού 5, Αθήνα',
      postal_code: '90-001',
      city: 'Łódź',
      region: 'Łódzkie',
      country: 'PL',
      tax_id: null,
    };
    expect((await call(stack.client(), 'PUT', '/v1/billing/profile', owner.token, profile)).status).toBe(200);
    const invoice = (await choosePlan(stack, owner.token, 'starter')).body.data.invoice;
    const expected = [`Billed to: ${profile.legal_name}`, profile.address_line1, profile.address_line2, '90-001 Łódź', 'Łódzkie', 'Poland'];
    expect(pdfText((await call(stack.client(), 'GET', `/v1/billing/invoices/${invoice.id}/pdf`, owner.token)).bytes)).toEqual(expect.arrayContaining(expected));

    await markPaid(stack, operator, invoice.id);
    const note = await call(stack.client(), 'POST', `/v1/admin/billing/invoices/${invoice.id}/credit-notes`, operator, {
      amount_minor: 100,
      reason: 'Przestój serwera — 2 dni',
      refund: false,
    });
    expect(note.status).toBe(201);
    const text = pdfText((await call(stack.client(), 'GET', `/v1/billing/credit-notes/${note.body.data.id}/pdf`, owner.token)).bytes);
    expect(text).toEqual(
      expect.arrayContaining([`Credited to: ${profile.legal_name}`, profile.address_line2, '90-001 Łódź', 'Reason: Przestój serwera — 2 dni']),
    );
  });
});
