/** Every ISO 3166-1 alpha-2 code; lives with the configuration, which checks the seller's country with it. */
export { isCountryCode } from '../../config/country-codes.ts';

/** The 27 member states of the EU (Greece is GR here; its VAT ids start with EL). */
export const EU_COUNTRIES: ReadonlySet<string> = new Set('AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK'.split(' '));

export function isEuCountry(code: string | null | undefined): boolean {
  return code != null && EU_COUNTRIES.has(code);
}

const names = new Intl.DisplayNames(['en'], { type: 'region' });

/** "DE" → "Germany", as a bill-to block prints it. */
export function countryName(code: string): string {
  return names.of(code) ?? code;
}
