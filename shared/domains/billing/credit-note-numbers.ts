import type { Knex } from 'knex';

/**
 * The next credit note number of `year`, in a series of its own (`BTH-CN-2026-000001`), taken inside
 * the issuing transaction exactly as invoice numbers are (see nextInvoiceNumber): the counter row
 * stays locked until that transaction ends, so numbers have no gaps and no duplicates.
 */
export async function nextCreditNoteNumber(trx: Knex.Transaction, year: number, prefix: string): Promise<string> {
  const result = await trx.raw<{ rows: Array<{ last_number: number }> }>(
    `INSERT INTO credit_note_number_counters (year, last_number) VALUES (?, 1)
     ON CONFLICT (year) DO UPDATE SET last_number = credit_note_number_counters.last_number + 1
     RETURNING last_number`,
    [year],
  );
  return formatCreditNoteNumber(prefix, year, result.rows[0]!.last_number);
}

export function formatCreditNoteNumber(prefix: string, year: number, sequence: number): string {
  return `${prefix}-CN-${year}-${String(sequence).padStart(6, '0')}`;
}
