import { isEuCountry } from './countries.ts';
import type { BillingSettings } from './rows.ts';

export const REVERSE_CHARGE_NOTE = 'Reverse charge: VAT to be accounted for by the recipient (Art. 196 Directive 2006/112/EC)';
export const OUTSIDE_EU_NOTE = 'VAT not applicable: services supplied outside the EU (Art. 44 and 58 Directive 2006/112/EC)';

export type TaxRule = { rateBps: number; reverseCharge: boolean; note: string | null };

/**
 * The tax an invoice applies when BILLING_SELLER_COUNTRY is in the EU. Hosting is an electronically
 * supplied service, taxed where the customer is: a customer outside the EU pays no EU VAT (0 %, with
 * the note); a business (a customer with a VAT id) in another EU country is reverse-charged (0 %,
 * with the note). Anything else pays BILLING_TAX_RATE_BPS: consumers in the EU, customers in the
 * seller's country, teams without a profile, and every customer when the seller is outside the EU or
 * BILLING_SELLER_COUNTRY is not set. (No per-country consumer rates, no OSS: one default rate.)
 */
export function taxRuleFor(
  customer: { country: string; taxId: string | null } | null,
  settings: Pick<BillingSettings, 'taxRateBps' | 'sellerCountry'>,
): TaxRule {
  const seller = settings.sellerCountry ?? null;
  const defaultRate = { rateBps: settings.taxRateBps, reverseCharge: false, note: null };
  if (!customer || !isEuCountry(seller)) return defaultRate;
  if (!isEuCountry(customer.country)) return { rateBps: 0, reverseCharge: false, note: OUTSIDE_EU_NOTE };
  if (customer.taxId && customer.country !== seller) return { rateBps: 0, reverseCharge: true, note: REVERSE_CHARGE_NOTE };
  return defaultRate;
}
