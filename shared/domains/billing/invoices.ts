import type { Knex } from 'knex';
import type { Db } from '../../db/knex.ts';
import { NotFound } from '../../errors.ts';
import { BillingConflict } from './billing-conflict.ts';
import { emitInvoiceEvent } from './billing-events.ts';
import { nextInvoiceNumber } from './invoice-numbers.ts';
import { customerOf, findBillingProfile } from './billing-profiles.ts';
import { percentOf, taxOf } from './money.ts';
import type { BillingSettings, InvoiceLineRow, InvoiceRow, InvoiceStatus } from './rows.ts';
import { taxRuleFor } from './tax-rule.ts';

export type InvoiceItem = { description: string; quantity: number; unitAmountMinor: number };

export type NewInvoice = {
  teamId: number;
  subscriptionId: number | null;
  currency: string;
  provider: string;
  period: { start: Date; end: Date } | null;
  items: InvoiceItem[];
};

export type InvoiceWithLines = InvoiceRow & { lines: InvoiceLineRow[] };

const DAY_MS = 86_400_000;

/**
 * A draft invoice: its item lines, then one tax line at the rate of the team's billing profile (see
 * taxRuleFor: the configured rate, none at 0 %; 0 % with its note for an EU reverse charge or a
 * customer outside the EU), and the totals they add up to. Everything in integer minor units of one
 * currency. The profile is read once: the draft keeps it as its `customer`, which finalizeInvoice
 * keeps, so the tax and the bill-to block always come from the same details (a PUT in between
 * cannot give a reverse charge without a VAT id on the invoice).
 */
export async function createDraftInvoice(
  trx: Knex.Transaction,
  input: NewInvoice,
  settings: Pick<BillingSettings, 'taxRateBps' | 'sellerCountry'>,
): Promise<InvoiceWithLines> {
  const items = input.items.map((item, index) => ({
    position: index + 1,
    kind: 'item' as const,
    description: item.description,
    quantity: item.quantity,
    unit_amount_minor: item.unitAmountMinor,
    amount_minor: item.quantity * item.unitAmountMinor,
    tax_rate_bps: null,
    taxable_minor: null,
  }));
  const subtotal = items.reduce((sum, line) => sum + line.amount_minor, 0);
  const profile = await findBillingProfile(trx, input.teamId);
  const rule = taxRuleFor(profile && { country: profile.country, taxId: profile.tax_id }, settings);
  const tax = taxOf(subtotal, rule.rateBps);
  const taxLines =
    rule.rateBps > 0 || rule.reverseCharge
      ? [
          {
            position: items.length + 1,
            kind: 'tax' as const,
            description: `Tax ${percentOf(rule.rateBps)}${rule.reverseCharge ? ' (reverse charge)' : ''}`,
            quantity: 1,
            unit_amount_minor: tax,
            amount_minor: tax,
            tax_rate_bps: rule.rateBps,
            taxable_minor: subtotal,
          },
        ]
      : [];
  const [invoice] = await trx<InvoiceRow>('invoices')
    .insert({
      team_id: input.teamId,
      subscription_id: input.subscriptionId,
      status: 'draft',
      currency: input.currency,
      subtotal_minor: subtotal,
      tax_minor: tax,
      total_minor: subtotal + tax,
      period_start: input.period?.start ?? null,
      period_end: input.period?.end ?? null,
      provider: input.provider,
      tax_note: rule.note,
      customer: customerOf(profile),
    })
    .returning('*');
  const lines = [...items, ...taxLines];
  const stored =
    lines.length > 0
      ? await trx<InvoiceLineRow>('invoice_lines')
          .insert(lines.map((line) => ({ ...line, invoice_id: invoice!.id })))
          .returning('*')
      : [];
  return { ...(invoice as InvoiceRow), lines: (stored as InvoiceLineRow[]).sort((a, b) => a.position - b.position) };
}

/**
 * Draft → open: the invoice gets the next number of the year it is finalized in (see
 * nextInvoiceNumber) and its due date; it keeps the billing details its draft was taxed with
 * (`customer`, see createDraftInvoice). From now on its lines, totals and customer never change.
 */
export async function finalizeInvoice(trx: Knex.Transaction, invoiceId: number, settings: BillingSettings, now = new Date()): Promise<InvoiceRow> {
  const invoice = await trx<InvoiceRow>('invoices').where({ id: invoiceId }).forUpdate().first();
  if (!invoice) throw new NotFound('Invoice not found');
  if (invoice.status !== 'draft') throw new BillingConflict('invoice_not_draft', `Invoice ${invoice.number} is ${invoice.status}, not a draft`);
  const { count } = (await trx('invoice_lines').where({ invoice_id: invoiceId, kind: 'item' }).count({ count: '*' }).first()) as { count: number };
  if (Number(count) === 0) throw new BillingConflict('invoice_empty', 'An invoice without items cannot be finalized');
  const number = await nextInvoiceNumber(trx, now.getUTCFullYear(), settings.invoicePrefix);
  const [open] = await trx<InvoiceRow>('invoices')
    .where({ id: invoiceId })
    .update({ status: 'open', number, finalized_at: now, due_at: new Date(now.getTime() + settings.invoiceDueDays * DAY_MS), updated_at: now })
    .returning('*');
  await emitInvoiceEvent(trx, 'invoice.finalized', open as InvoiceRow);
  return open as InvoiceRow;
}

/** Open or uncollectible → void (a mistake, or the subscription it was for was abandoned). */
export async function voidInvoice(db: Db, invoiceId: number, now = new Date()): Promise<InvoiceWithLines> {
  return db.transaction(async (trx) => {
    const invoice = await lockSettleable(trx, invoiceId);
    const [voided] = await trx<InvoiceRow>('invoices').where({ id: invoice.id }).update({ status: 'void', voided_at: now, updated_at: now }).returning('*');
    await emitInvoiceEvent(trx, 'invoice.voided', voided as InvoiceRow);
    return withLines(trx, voided as InvoiceRow);
  });
}

/** Open → uncollectible: written off, though a late payment may still mark it paid. */
export async function markInvoiceUncollectible(db: Db, invoiceId: number, now = new Date()): Promise<InvoiceWithLines> {
  return db.transaction(async (trx) => {
    const invoice = await lockSettleable(trx, invoiceId);
    if (invoice.status !== 'open')
      throw new BillingConflict('invoice_not_open', `Invoice ${invoice.number} is ${invoice.status}; only an open invoice can be marked uncollectible`);
    const [written] = await trx<InvoiceRow>('invoices')
      .where({ id: invoice.id })
      .update({ status: 'uncollectible', marked_uncollectible_at: now, updated_at: now })
      .returning('*');
    await emitInvoiceEvent(trx, 'invoice.marked_uncollectible', written as InvoiceRow);
    return withLines(trx, written as InvoiceRow);
  });
}

/** The invoice, locked, if it still waits for money (open, or uncollectible: Stripe lets both be paid or voided). */
export async function lockSettleable(trx: Knex.Transaction, invoiceId: number): Promise<InvoiceRow> {
  const invoice = await trx<InvoiceRow>('invoices').where({ id: invoiceId }).forUpdate().first();
  if (!invoice) throw new NotFound('Invoice not found');
  if (invoice.status !== 'open' && invoice.status !== 'uncollectible') {
    throw new BillingConflict(
      'invoice_not_open',
      `Invoice ${invoice.number ?? invoice.id} is ${invoice.status}; only an open or uncollectible invoice can be settled`,
    );
  }
  return invoice;
}

/**
 * Invoices newest first, of one team (`teamId`) or of all (operators), optionally in one status;
 * drafts are Berth's own business and never listed.
 */
export async function listInvoices(
  db: Db,
  filter: { teamId?: number; status?: InvoiceStatus },
  page: { page: number; pageSize: number },
): Promise<{ rows: InvoiceRow[]; total: number }> {
  const base = db<InvoiceRow>('invoices').whereNot({ status: 'draft' });
  if (filter.teamId !== undefined) base.where({ team_id: filter.teamId });
  if (filter.status !== undefined) base.where({ status: filter.status });
  const [rows, counted] = await Promise.all([
    base
      .clone()
      .orderBy('id', 'desc')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize),
    base.clone().count({ count: '*' }).first() as Promise<{ count: number } | undefined>,
  ]);
  return { rows: rows as InvoiceRow[], total: Number(counted?.count ?? 0) };
}

/** One invoice with its lines; `teamId` null (operators) finds any team's. Another team's: 404, as if it did not exist. */
export async function findInvoice(db: Db | Knex.Transaction, teamId: number | null, invoiceId: number): Promise<InvoiceWithLines> {
  const query = db<InvoiceRow>('invoices').where({ id: invoiceId }).whereNot({ status: 'draft' });
  if (teamId !== null) query.where({ team_id: teamId });
  const invoice = await query.first();
  if (!invoice) throw new NotFound('Invoice not found');
  return withLines(db, invoice as InvoiceRow);
}

export async function withLines(db: Db | Knex.Transaction, invoice: InvoiceRow): Promise<InvoiceWithLines> {
  const lines = await db<InvoiceLineRow>('invoice_lines').where({ invoice_id: invoice.id }).orderBy('position');
  return { ...invoice, lines: lines as InvoiceLineRow[] };
}
