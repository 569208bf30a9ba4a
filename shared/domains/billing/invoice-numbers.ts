import type { Knex } from 'knex';

/**
 * The next number of `year` in a gapless series (its counter table: one row per year), taken inside
 * the caller's transaction: the upsert locks the year's row until that transaction ends, so
 * concurrent callers queue on it and each gets the next number; a transaction that rolls back gives
 * its number back. No gaps, no duplicates.
 */
export async function nextInSeries(trx: Knex.Transaction, counters: 'invoice_number_counters' | 'credit_note_number_counters', year: number): Promise<number> {
  const result = await trx.raw<{ rows: Array<{ last_number: number }> }>(
    `INSERT INTO ?? (year, last_number) VALUES (?, 1)
     ON CONFLICT (year) DO UPDATE SET last_number = ??.last_number + 1
     RETURNING last_number`,
    [counters, year, counters],
  );
  return result.rows[0]!.last_number;
}

/** The next invoice number of `year`, taken inside the finalizing transaction (nextInSeries). */
export async function nextInvoiceNumber(trx: Knex.Transaction, year: number, prefix: string): Promise<string> {
  return formatInvoiceNumber(prefix, year, await nextInSeries(trx, 'invoice_number_counters', year));
}

/** BTH-2026-000042; past 999999 in a year the number simply grows a digit. */
export function formatInvoiceNumber(prefix: string, year: number, sequence: number): string {
  return `${prefix}-${year}-${String(sequence).padStart(6, '0')}`;
}
