import type { Knex } from 'knex';

/**
 * The next invoice number of `year`, taken inside the finalizing transaction: the upsert locks the
 * year's counter row until that transaction ends, so concurrent finalizations queue on it and each
 * gets the next number; a transaction that rolls back gives its number back. Gapless, no duplicates.
 */
export async function nextInvoiceNumber(trx: Knex.Transaction, year: number, prefix: string): Promise<string> {
  const result = await trx.raw<{ rows: Array<{ last_number: number }> }>(
    `INSERT INTO invoice_number_counters (year, last_number) VALUES (?, 1)
     ON CONFLICT (year) DO UPDATE SET last_number = invoice_number_counters.last_number + 1
     RETURNING last_number`,
    [year],
  );
  return formatInvoiceNumber(prefix, year, result.rows[0]!.last_number);
}

/** BTH-2026-000042; past 999999 in a year the number simply grows a digit. */
export function formatInvoiceNumber(prefix: string, year: number, sequence: number): string {
  return `${prefix}-${year}-${String(sequence).padStart(6, '0')}`;
}
