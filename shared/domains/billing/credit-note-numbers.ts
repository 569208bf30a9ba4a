import type { Knex } from 'knex';
import { nextInSeries } from './invoice-numbers.ts';

/**
 * The next credit note number of `year`, in a series of its own (`BTH-CN-2026-000001`), taken inside
 * the issuing transaction exactly as invoice numbers are (see nextInvoiceNumber): the counter row
 * stays locked until that transaction ends, so numbers have no gaps and no duplicates.
 */
export async function nextCreditNoteNumber(trx: Knex.Transaction, year: number, prefix: string): Promise<string> {
  return formatCreditNoteNumber(prefix, year, await nextInSeries(trx, 'credit_note_number_counters', year));
}

export function formatCreditNoteNumber(prefix: string, year: number, sequence: number): string {
  return `${prefix}-CN-${year}-${String(sequence).padStart(6, '0')}`;
}
