import type { Db } from '../../db/knex.ts';
import type { Logger } from '../../logger.ts';
import { providerNamed } from './providers/providers.ts';
import type { BillingSettings, InvoiceRow } from './rows.ts';
import { withoutSecrets } from './stripe/stripe-retry.ts';

/**
 * After the transaction that abandoned a subscription has committed (cancelled before it was paid,
 * or expired): each invoice it voided is withdrawn at its provider (Stripe's PaymentIntent
 * cancelled), so nobody pays what is no longer owed. Best effort, never failing the caller: a
 * provider that fails is logged, and money that arrived first is logged as an error for the
 * operators to refund by hand (the webhook of that payment finds a void invoice and settles nothing).
 */
export async function withdrawVoidedInvoices(
  deps: { db: Db; logger: Partial<Pick<Logger, 'warn' | 'error'>> },
  settings: BillingSettings,
  invoices: readonly InvoiceRow[],
): Promise<void> {
  for (const invoice of invoices) {
    const provider = providerNamed(invoice.provider);
    if (!provider.withdraw) continue;
    try {
      const outcome = await provider.withdraw(invoice, { db: deps.db, settings });
      if (outcome === 'already_paid') {
        deps.logger.error?.(
          { invoice_id: invoice.id, team_id: invoice.team_id, provider: invoice.provider, payment: invoice.provider_ref },
          'a voided invoice was paid before its payment could be withdrawn: refund it by hand',
        );
      }
    } catch (error) {
      deps.logger.warn?.(
        { invoice_id: invoice.id, provider: invoice.provider, err: withoutSecrets((error as Error).message, settings.stripe?.secretKey ?? '') },
        "the voided invoice's payment could not be withdrawn at the provider",
      );
    }
  }
}
