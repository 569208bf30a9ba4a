import { z } from 'zod';
import type { BillingCustomer, BillingProfileRow } from '../../shared/domains/billing/billing-profiles.ts';
import { isCountryCode } from '../../shared/domains/billing/countries.ts';
import { normalizeTaxId, taxIdProblem } from '../../shared/domains/billing/vat-id.ts';

// Postgres text cannot hold NUL: refused here (422 naming the field) rather than failing the insert (500).
const withoutNul = () => z.string().refine((value) => !value.includes('\u0000'), 'must not contain the NUL character (\\u0000)');
const text = (max: number) => withoutNul().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
// Left out, null or blank: none.
const optionalText = (max: number) =>
  withoutNul()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .nullish()
    .transform((value) => value || null);

const profileFields = {
  legal_name: text(200).describe("The name invoices are made out to (the company's registered name)"),
  invoice_email: z
    .email('must be an email address')
    .max(254)
    .nullish()
    .transform((value) => value ?? null)
    .describe("Where invoices and credit notes are mailed (only there); null: to the team's owners and billing members"),
  address_line1: text(200),
  address_line2: optionalText(200),
  postal_code: text(20),
  city: text(100),
  region: optionalText(100).describe('State, province or county, where addresses have one'),
  country: z.string().trim().toUpperCase().refine(isCountryCode, 'must be an ISO 3166-1 alpha-2 country code, e.g. DE').describe('ISO 3166-1 alpha-2'),
  tax_id: z
    .string()
    .trim()
    .max(40, 'must be at most 40 characters')
    .nullish()
    .transform((value) => (value ? normalizeTaxId(value) : null))
    .describe(
      "VAT or tax id, stored in upper case without spaces. In an EU country, a VAT id with its prefix in that country's format (`DE123456789`; Greece `EL`); only the format is checked",
    ),
};

// The tax id's check needs a valid country, and runs (naming `tax_id`) even when other fields fail.
const taxIdAndCountry = z.object({ country: profileFields.country, tax_id: profileFields.tax_id });

export const billingProfileBody = z.strictObject(profileFields).refine((body) => body.tax_id === null || taxIdProblem(body.tax_id, body.country) === null, {
  path: ['tax_id'],
  error: (issue) => {
    const { country, tax_id } = taxIdAndCountry.parse(issue.input);
    return (tax_id && taxIdProblem(tax_id, country)) ?? 'is not valid';
  },
  when: (payload) => taxIdAndCountry.safeParse(payload.value).success,
});

const nullableText = z.string().nullable();

export const billingCustomerJson = z
  .object({
    legal_name: z.string(),
    address_line1: z.string(),
    address_line2: nullableText,
    postal_code: z.string(),
    city: z.string(),
    region: nullableText,
    country: z.string().describe('ISO 3166-1 alpha-2'),
    tax_id: nullableText,
  })
  .meta({ id: 'BillingCustomer' });

export const billingProfileJson = z
  .object({
    complete: z
      .boolean()
      .describe("false: the team has not given its billing details yet (every other field null); its invoices are made out to the team's name"),
    legal_name: nullableText,
    invoice_email: nullableText,
    address_line1: nullableText,
    address_line2: nullableText,
    postal_code: nullableText,
    city: nullableText,
    region: nullableText,
    country: nullableText,
    tax_id: nullableText,
    updated_at: z.string().nullable().describe('ISO 8601 UTC'),
  })
  .meta({ id: 'BillingProfile' });

export function billingProfileView(profile: BillingProfileRow | null): z.infer<typeof billingProfileJson> {
  if (!profile) {
    return {
      complete: false,
      legal_name: null,
      invoice_email: null,
      address_line1: null,
      address_line2: null,
      postal_code: null,
      city: null,
      region: null,
      country: null,
      tax_id: null,
      updated_at: null,
    };
  }
  return {
    complete: true,
    legal_name: profile.legal_name,
    invoice_email: profile.invoice_email,
    address_line1: profile.address_line1,
    address_line2: profile.address_line2,
    postal_code: profile.postal_code,
    city: profile.city,
    region: profile.region,
    country: profile.country,
    tax_id: profile.tax_id,
    updated_at: profile.updated_at.toISOString(),
  };
}

export function billingCustomerView(customer: BillingCustomer | null): z.infer<typeof billingCustomerJson> | null {
  return customer && { ...customer };
}
