import { isEuCountry } from './countries.ts';
import type { BillingSettings } from './rows.ts';

export const REVERSE_CHARGE_NOTE = 'Reverse charge: VAT to be accounted for by the recipient (Art. 196 Directive 2006/112/EC)';

export type TaxRule = { rateBps: number; reverseCharge: boolean; note: string | null };

/**
 * The tax an invoice applies. The EU reverse charge: a seller in one EU country invoicing a business
 * (a customer with a VAT id) in another charges no VAT, and the invoice says so. Anything else pays
 * BILLING_TAX_RATE_BPS: consumers, customers in the seller's country, outside the EU, or when
 * BILLING_SELLER_COUNTRY is not set. (No per-country consumer rates, no OSS: one default rate.)
 */
export function taxRuleFor(customer: { country: string; taxId: string | null } | null, settings: Pick<BillingSettings, 'taxRateBps' | 'sellerCountry'>): TaxRule {
  const seller = settings.sellerCountry ?? null;
  if (customer && customer.taxId && isEuCountry(seller) && isEuCountry(customer.country) && customer.country !== seller) {
    return { rateBps: 0, reverseCharge: true, note: REVERSE_CHARGE_NOTE };
  }
  return { rateBps: settings.taxRateBps, reverseCharge: false, note: null };
}
