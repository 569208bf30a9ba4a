import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { choosePlan, creditNote, invoiceOf, markPaid, signedInOperator, signedInOwner } from '../../helpers/billing.ts';
import { accessTokenOf } from '../../helpers/factories.ts';
import { pdfText } from '../../helpers/pdf-text.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { addMember, call } from '../../helpers/team-members.ts';

/**
 * Credit notes with the manual provider (the money goes back by the operator's bank transfer:
 * `not_applicable`), through the HTTP stack with the workers mailing the PDF to a real SMTP mailbox.
 * Tax at 20 %: business is 49.00 + 9.80 = 58.80 EUR.
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

const CN_NUMBER = /^BTH-CN-\d{4}-\d{6}$/;

/** A team whose business invoice an operator marked paid. */
async function paidInvoice(plan = 'business') {
  const owner = await signedInOwner(stack);
  const invoice = (await choosePlan(stack, owner.token, plan)).body.data.invoice as { id: number; number: string; total_minor: number };
  expect((await markPaid(stack, operator, invoice.id)).status).toBe(200);
  return { ...owner, invoice };
}

describe('crediting a paid invoice', () => {
  it('in full: a numbered credit note of its total and tax, the invoice still paid and `refunded`, nothing more to credit', async () => {
    const { token, invoice } = await paidInvoice();
    const reply = await creditNote(stack, operator, invoice.id, { reason: 'Cancelled in the first week', refund: true });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body.data).toMatchObject({
      number: expect.stringMatching(CN_NUMBER),
      invoice_id: invoice.id,
      status: 'issued',
      currency: 'EUR',
      amount_minor: 5880,
      tax_minor: 980,
      reason: 'Cancelled in the first week',
      refund_status: 'not_applicable',
      provider_ref: null,
      refund_failure: null,
    });
    const shown = await invoiceOf(stack, token, invoice.id);
    expect(shown).toMatchObject({
      status: 'paid',
      total_minor: 5880,
      amount_credited_minor: 5880,
      refund_state: 'refunded',
      amount_lost_minor: 0,
      disputes: [],
    });
    expect(shown.credit_notes).toEqual([expect.objectContaining({ id: reply.body.data.id, amount_minor: 5880 })]);
    const again = await creditNote(stack, operator, invoice.id, { reason: 'Twice', refund: false });
    expect(again.status).toBe(409);
    expect(again.body.error.details.reason).toBe('credit_exceeds_invoice');
  });

  it("in part: the tax split in proportion, cumulatively rounded so the parts add up to the invoice's tax; never past its total", async () => {
    const { token, invoice } = await paidInvoice();
    const first = await creditNote(stack, operator, invoice.id, { amount_minor: 1000, reason: 'Downtime on 3 days', refund: true });
    expect(first.body.data).toMatchObject({ amount_minor: 1000, tax_minor: 167 }); // 980 × 1000 / 5880 = 166.67
    expect(await invoiceOf(stack, token, invoice.id)).toMatchObject({ status: 'paid', amount_credited_minor: 1000, refund_state: 'partially_refunded' });
    const over = await creditNote(stack, operator, invoice.id, { amount_minor: 4881, reason: 'Too much', refund: true });
    expect(over.status).toBe(409);
    expect(over.body.error.details.reason).toBe('credit_exceeds_invoice');
    const rest = await creditNote(stack, operator, invoice.id, { reason: 'The rest', refund: true });
    expect(rest.body.data).toMatchObject({ amount_minor: 4880, tax_minor: 813 });
    expect(first.body.data.tax_minor + rest.body.data.tax_minor).toBe(980);
    expect(await invoiceOf(stack, token, invoice.id)).toMatchObject({ amount_credited_minor: 5880, refund_state: 'refunded' });
    expect((await creditNote(stack, operator, invoice.id, { amount_minor: 1, reason: 'One more cent', refund: false })).status).toBe(409);
  });

  it('refuses an invoice that is not paid (409 invoice_not_paid) and bodies that make no sense (422)', async () => {
    const owner = await signedInOwner(stack);
    const open = (await choosePlan(stack, owner.token, 'starter')).body.data.invoice;
    const reply = await creditNote(stack, operator, open.id, { reason: 'Not paid yet', refund: true });
    expect(reply.status).toBe(409);
    expect(reply.body.error.details.reason).toBe('invoice_not_paid');
    expect((await call(stack.client(), 'POST', `/v1/billing/invoices/${open.id}/void`, operator)).status).toBe(200);
    expect((await creditNote(stack, operator, open.id, { reason: 'Void', refund: true })).body.error.details.reason).toBe('invoice_not_paid');
    const { invoice } = await paidInvoice('starter');
    for (const body of [
      { reason: 'x' },
      { reason: '', refund: true },
      { reason: 'x', refund: true, amount_minor: 0 },
      { reason: 'x', refund: true, amount_minor: 1.5 },
    ]) {
      expect((await creditNote(stack, operator, invoice.id, body)).status).toBe(422);
    }
    expect((await creditNote(stack, operator, 2_000_000_000, { reason: 'No such invoice', refund: true })).status).toBe(404);
  });

  it('numbers credit notes gapless in their own series, also 20 at once on one invoice, never crediting more than its total', async () => {
    const { invoice } = await paidInvoice();
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, index) => creditNote(stack, operator, invoice.id, { amount_minor: 500, reason: `Part ${index + 1}`, refund: false })),
    );
    const issued = replies.filter((reply) => reply.status === 201);
    expect(issued).toHaveLength(11); // 11 × 500 = 5500 of 5880
    expect(replies.filter((reply) => reply.status === 409).every((reply) => reply.body.error.details.reason === 'credit_exceeds_invoice')).toBe(true);
    expect(replies.filter((reply) => reply.status !== 201 && reply.status !== 409)).toEqual([]);
    const row = await stack.ctx.db('invoices').where({ id: invoice.id }).first();
    expect(row.amount_credited_minor).toBe(5500);
    const mine = issued.map((reply) => Number((reply.body.data.number as string).slice(-6))).sort((a, b) => a - b);
    expect(mine).toEqual(Array.from({ length: 11 }, (_, index) => mine[0]! + index));
    // The whole series of the year so far: 1..n, each once (the invoice numbers are a series of their own).
    const year = new Date().getUTCFullYear();
    const all = (await stack.ctx.db('credit_notes').where('number', 'like', `BTH-CN-${year}-%`).pluck('number')) as string[];
    expect(all.map((number) => Number(number.slice(-6))).sort((a, b) => a - b)).toEqual(Array.from({ length: all.length }, (_, index) => index + 1));
    expect((await stack.ctx.db('credit_note_number_counters').where({ year }).first()).last_number).toBe(all.length);
  });
});

describe('who may see and issue credit notes', () => {
  it('only operators issue them (a team owner: 404, as every operator route) and retry refunds; a credit note without a refund is not retried', async () => {
    const { token, invoice } = await paidInvoice('starter');
    const refused = await creditNote(stack, token, invoice.id, { reason: 'Myself', refund: true });
    expect(refused.status).toBe(404);
    expect(await stack.ctx.db('credit_notes').where({ invoice_id: invoice.id })).toEqual([]);
    const note = (await creditNote(stack, operator, invoice.id, { amount_minor: 100, reason: 'Goodwill', refund: false })).body.data;
    expect(note.refund_status).toBe('not_applicable');
    expect((await call(stack.client(), 'POST', `/v1/admin/billing/credit-notes/${note.id}/refund`, token)).status).toBe(404);
    const retry = await call(stack.client(), 'POST', `/v1/admin/billing/credit-notes/${note.id}/refund`, operator);
    expect(retry.status).toBe(409);
    expect(retry.body.error.details.reason).toBe('refund_not_retryable');
    expect((await call(stack.client(), 'GET', '/v1/admin/billing/credit-notes', token)).status).toBe(404);
    const listed = await call(stack.client(), 'GET', `/v1/admin/billing/credit-notes?invoice_id=${invoice.id}`, operator);
    expect(listed.body.data).toEqual([expect.objectContaining({ id: note.id, team_id: expect.any(Number) })]);
  });

  it("a team sees its own credit notes only (billing:read); others' answer 404", async () => {
    const a = await paidInvoice('starter');
    const b = await paidInvoice('starter');
    const noteA = (await creditNote(stack, operator, a.invoice.id, { amount_minor: 300, reason: 'A', refund: true })).body.data;
    const noteB = (await creditNote(stack, operator, b.invoice.id, { amount_minor: 400, reason: 'B', refund: true })).body.data;
    const listA = await call(stack.client(), 'GET', '/v1/billing/credit-notes', a.token);
    expect(listA.body.data.map((note: { id: number }) => note.id)).toEqual([noteA.id]);
    expect(listA.body.data[0]).not.toHaveProperty('provider_ref');
    expect((await call(stack.client(), 'GET', `/v1/billing/credit-notes/${noteB.id}`, a.token)).status).toBe(404);
    expect((await call(stack.client(), 'GET', `/v1/billing/credit-notes/${noteB.id}/pdf`, a.token)).status).toBe(404);
    expect((await call(stack.client(), 'GET', `/v1/billing/credit-notes/${noteB.id}`, b.token)).body.data).toMatchObject({ id: noteB.id, amount_minor: 400 });
    const developer = await accessTokenOf(stack.client(), await addMember(stack.ctx.db, { teamId: a.user.teamId, teamName: a.user.teamName }, 'developer'));
    expect((await call(stack.client(), 'GET', '/v1/billing/credit-notes', developer)).status).toBe(403);
  });
});

describe('the credit note PDF', () => {
  it('is mailed to the owners and billing members, served to the team, and says what the credit note says', async () => {
    const { user, token, invoice } = await paidInvoice();
    const team = { teamId: user.teamId, teamName: user.teamName };
    const billing = await addMember(stack.ctx.db, team, 'billing');
    const developer = await addMember(stack.ctx.db, team, 'developer');
    const note = (await creditNote(stack, operator, invoice.id, { amount_minor: 1176, reason: 'Two days of downtime', refund: true })).body.data;
    const subject = new RegExp(`^Credit note ${note.number} from Berth: €11\\.76$`);
    const mail = await stack.mailbox.waitFor(user.email, subject);
    await stack.mailbox.waitFor(billing.email, subject);
    expect(stack.mailbox.to(developer.email).filter((received) => subject.test(received.subject))).toEqual([]);
    expect(mail.text).toContain(`credited on invoice ${invoice.number}`);
    expect(mail.text).toContain('bank transfer');
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]).toMatchObject({ filename: `${note.number}.pdf`, contentType: 'application/pdf' });
    const text = pdfText(mail.attachments[0]!.content);
    expect(text).toEqual(
      expect.arrayContaining([
        `Credit note ${note.number}`,
        'From: Berth Hosting Ltd',
        `Credited to: ${user.teamName}`,
        'Reason: Two days of downtime',
        '€9.80',
        'Tax credited',
        '€1.96',
        'Total credited',
        '€11.76',
      ]),
    );
    expect(text.some((line) => line.startsWith(`Credits invoice ${invoice.number} of `) && line.endsWith('(total €58.80)'))).toBe(true);

    const served = await call(stack.client(), 'GET', `/v1/billing/credit-notes/${note.id}/pdf`, token);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/pdf');
    expect(served.headers.get('content-disposition')).toBe(`attachment; filename="${note.number}.pdf"`);
    expect(pdfText(served.bytes)).toContain('Total credited');
  });
});
