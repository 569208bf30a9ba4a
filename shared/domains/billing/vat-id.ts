import { EU_COUNTRIES } from './countries.ts';

/**
 * The shape of each EU member state's VAT id after its prefix (the VIES formats). Only the shape:
 * whether the number exists is not asked of VIES (no network lookups).
 */
const EU_VAT_SHAPES: Record<string, RegExp> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^(\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^[1-9]\d{1,9}$/,
  SE: /^\d{10}01$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
};

/** The prefix an EU country's VAT ids start with: its country code, but EL for Greece. */
export function vatPrefixOf(country: string): string {
  return country === 'GR' ? 'EL' : country;
}

/** A tax id as stored: upper case, without the spaces, dots and dashes people write in it. */
export function normalizeTaxId(taxId: string): string {
  return taxId.toUpperCase().replace(/[\s.-]/g, '');
}

/**
 * Why a (normalized) tax id is not one of `country`'s, or null. An EU country's must be a VAT id:
 * its prefix then its shape (`DE123456789`). Outside the EU any id of letters and digits is taken.
 */
export function taxIdProblem(taxId: string, country: string): string | null {
  if (!/^[A-Z0-9+*]{2,30}$/.test(taxId)) return 'must be 2 to 30 letters or digits';
  if (!EU_COUNTRIES.has(country)) return null;
  const prefix = vatPrefixOf(country);
  if (!taxId.startsWith(prefix)) return `must be a VAT id of ${country}, starting with ${prefix} (e.g. ${prefix}${example(prefix)})`;
  if (!EU_VAT_SHAPES[prefix]!.test(taxId.slice(prefix.length))) return `is not in the format of VAT ids of ${country} (e.g. ${prefix}${example(prefix)})`;
  return null;
}

/** One id of each shape, for the message (`DE123456789`). */
const EXAMPLES: Record<string, string> = {
  AT: 'U12345678',
  BE: '0123456789',
  BG: '123456789',
  CY: '12345678L',
  CZ: '12345678',
  DE: '123456789',
  DK: '12345678',
  EE: '123456789',
  EL: '123456789',
  ES: 'X1234567X',
  FI: '12345678',
  FR: 'AB123456789',
  HR: '12345678901',
  HU: '12345678',
  IE: '1234567T',
  IT: '12345678901',
  LT: '123456789',
  LU: '12345678',
  LV: '12345678901',
  MT: '12345678',
  NL: '123456789B01',
  PL: '1234567890',
  PT: '123456789',
  RO: '1234567890',
  SE: '123456789701',
  SI: '12345678',
  SK: '1234567890',
};

function example(prefix: string): string {
  return EXAMPLES[prefix] ?? '';
}
