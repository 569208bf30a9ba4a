import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDraftInvoice, finalizeInvoice } from '../../../shared/domains/billing/invoices.ts';
import { createOwner } from '../../helpers/factories.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';

/**
 * Invoice numbers are assigned at finalization from a per-year counter row locked by the finalizing
 * transaction: many finalizations at once get consecutive numbers, no gap and no duplicate, and a
 * finalization that rolls back gives its number back. Each test uses a year of its own (the counter
 * is per year), so other test files finalizing this year's invoices cannot interleave.
 */
let stack: Stack;
let teamId = 0;
const settings = { taxRateBps: 2000, invoicePrefix: 'TST', invoiceDueDays: 30, unpaidAfterDays: 14 };

beforeAll(async () => {
  stack = await startStack({ workers: false });
  teamId = (await createOwner(stack.ctx.db)).teamId;
});
afterAll(async () => {
  await stack?.stop();
});

function draft(amount = 1000) {
  return stack.ctx.db.transaction((trx) =>
    createDraftInvoice(
      trx,
      {
        teamId,
        subscriptionId: null,
        currency: 'EUR',
        provider: 'manual',
        period: null,
        items: [{ description: 'Work', quantity: 2, unitAmountMinor: amount }],
      },
      settings,
    ),
  );
}

const finalize = (id: number, at: Date) => stack.ctx.db.transaction((trx) => finalizeInvoice(trx, id, settings, at));

describe('invoice numbers', () => {
  it('are gapless and unique when 40 invoices are finalized at once', async () => {
    const at = new Date(Date.UTC(2031, 5, 1));
    const drafts = await Promise.all(Array.from({ length: 40 }, (_, index) => draft(100 + index)));
    const finalized = await Promise.all(drafts.map((invoice) => finalize(invoice.id, at)));
    const numbers = finalized.map((invoice) => invoice.number!).sort();
    expect(numbers).toEqual(Array.from({ length: 40 }, (_, index) => `TST-2031-${String(index + 1).padStart(6, '0')}`));
    expect(finalized.every((invoice) => invoice.status === 'open' && invoice.due_at!.getTime() === at.getTime() + 30 * 86_400_000)).toBe(true);
  });

  it('start again at 1 each year, and a rolled-back finalization gives its number back', async () => {
    const [first, second, third] = await Promise.all([draft(), draft(), draft()]);
    expect((await finalize(first!.id, new Date(Date.UTC(2032, 11, 31, 23, 59, 59)))).number).toBe('TST-2032-000001');
    await expect(
      stack.ctx.db.transaction(async (trx) => {
        await finalizeInvoice(trx, second!.id, settings, new Date(Date.UTC(2032, 11, 31)));
        throw new Error('the mail could not be queued');
      }),
    ).rejects.toThrow('the mail could not be queued');
    expect((await stack.ctx.db('invoices').where({ id: second!.id }).first()).status).toBe('draft');
    expect((await finalize(third!.id, new Date(Date.UTC(2032, 11, 31)))).number).toBe('TST-2032-000002');
    expect((await finalize(second!.id, new Date(Date.UTC(2033, 0, 1)))).number).toBe('TST-2033-000001');
  });

  it('are given once: finalizing an open invoice is a 409 conflict, and a draft without items cannot be finalized', async () => {
    const invoice = await draft();
    await finalize(invoice.id, new Date(Date.UTC(2034, 0, 1)));
    await expect(finalize(invoice.id, new Date(Date.UTC(2034, 0, 2)))).rejects.toMatchObject({ reason: 'invoice_not_draft' });
    const empty = await stack.ctx.db.transaction((trx) =>
      createDraftInvoice(trx, { teamId, subscriptionId: null, currency: 'EUR', provider: 'manual', period: null, items: [] }, settings),
    );
    await expect(finalize(empty.id, new Date(Date.UTC(2034, 0, 1)))).rejects.toMatchObject({ reason: 'invoice_empty' });
    expect((await stack.ctx.db('invoice_number_counters').where({ year: 2034 }).first()).last_number).toBe(1);
  });

  it('keep totals that add up: items, then a tax line rounded half up', async () => {
    const invoice = await stack.ctx.db.transaction((trx) =>
      createDraftInvoice(
        trx,
        {
          teamId,
          subscriptionId: null,
          currency: 'EUR',
          provider: 'manual',
          period: null,
          items: [
            { description: 'A', quantity: 3, unitAmountMinor: 333 },
            { description: 'B', quantity: 1, unitAmountMinor: 1 },
          ],
        },
        { taxRateBps: 1950 },
      ),
    );
    expect(invoice).toMatchObject({ subtotal_minor: 1000, tax_minor: 195, total_minor: 1195 });
    expect(invoice.lines.map((line) => [line.kind, line.amount_minor])).toEqual([
      ['item', 999],
      ['item', 1],
      ['tax', 195],
    ]);
    await expect(stack.ctx.db('invoices').where({ id: invoice.id }).update({ total_minor: 1 })).rejects.toThrow(/invoices_total_adds_up/);
  });
});
