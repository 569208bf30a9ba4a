import { describe, expect, it } from 'vitest';
import { countryName, isCountryCode, isEuCountry } from '../../shared/domains/billing/countries.ts';
import { OUTSIDE_EU_NOTE, REVERSE_CHARGE_NOTE, taxRuleFor } from '../../shared/domains/billing/tax-rule.ts';
import { normalizeTaxId, taxIdProblem } from '../../shared/domains/billing/vat-id.ts';

describe('countries', () => {
  it('knows the ISO 3166-1 alpha-2 codes and which are in the EU', () => {
    expect(['DE', 'FR', 'GR', 'US', 'GB', 'CH', 'AX', 'SS'].every(isCountryCode)).toBe(true);
    expect(['XX', 'UK', 'EL', 'EU', 'de', 'D', ''].some(isCountryCode)).toBe(false);
    expect(['DE', 'FR', 'GR', 'IE', 'SK'].every(isEuCountry)).toBe(true);
    expect(['GB', 'CH', 'NO', 'US', null, undefined].some(isEuCountry)).toBe(false);
    expect(countryName('DE')).toBe('Germany');
  });
});

describe('tax ids', () => {
  it('are stored in upper case without spaces, dots or dashes', () => {
    expect(normalizeTaxId(' de 123.456-789 ')).toBe('DE123456789');
  });

  it('in an EU country are VAT ids with its prefix and of its format', () => {
    for (const [id, country] of [
      ['DE123456789', 'DE'],
      ['FRAB123456789', 'FR'],
      ['ATU12345678', 'AT'],
      ['NL123456789B01', 'NL'],
      ['EL123456789', 'GR'],
      ['IE1234567T', 'IE'],
      ['ESX1234567X', 'ES'],
      ['SE123456789701', 'SE'],
    ]) {
      expect(taxIdProblem(id!, country!), `${id} in ${country}`).toBeNull();
    }
    expect(taxIdProblem('FR12345678901', 'DE')).toBe('must be a VAT id of DE, starting with DE (e.g. DE123456789)');
    expect(taxIdProblem('GR123456789', 'GR')).toContain('starting with EL');
    expect(taxIdProblem('DE12345678', 'DE')).toBe('is not in the format of VAT ids of DE (e.g. DE123456789)');
    expect(taxIdProblem('DE1234567890', 'DE')).toContain('not in the format');
    expect(taxIdProblem('ATU1234567', 'AT')).toContain('not in the format');
    expect(taxIdProblem('NL123456789', 'NL')).toContain('not in the format');
  });

  it('outside the EU are any letters and digits', () => {
    expect(taxIdProblem('123456789', 'US')).toBeNull();
    expect(taxIdProblem('GB123456789', 'GB')).toBeNull();
    expect(taxIdProblem('CHE123456789', 'CH')).toBeNull();
    expect(taxIdProblem('12/34', 'US')).toBe('must be 2 to 30 letters or digits');
  });
});

describe('the tax rule', () => {
  const settings = { taxRateBps: 1900, sellerCountry: 'DE' };
  const defaultRate = { rateBps: 1900, reverseCharge: false, note: null };

  it('reverse-charges an EU business in another EU country than the seller: 0 % with the note', () => {
    expect(taxRuleFor({ country: 'FR', taxId: 'FRAB123456789' }, settings)).toEqual({ rateBps: 0, reverseCharge: true, note: REVERSE_CHARGE_NOTE });
    expect(taxRuleFor({ country: 'GR', taxId: 'EL123456789' }, settings)).toEqual({ rateBps: 0, reverseCharge: true, note: REVERSE_CHARGE_NOTE });
    expect(REVERSE_CHARGE_NOTE).toBe('Reverse charge: VAT to be accounted for by the recipient (Art. 196 Directive 2006/112/EC)');
  });

  it("charges an EU seller's customers outside the EU no VAT, business or consumer: 0 % with the note", () => {
    const outside = { rateBps: 0, reverseCharge: false, note: OUTSIDE_EU_NOTE };
    expect(taxRuleFor({ country: 'US', taxId: '123456789' }, settings)).toEqual(outside);
    expect(taxRuleFor({ country: 'GB', taxId: null }, settings)).toEqual(outside);
    expect(taxRuleFor({ country: 'CH', taxId: 'CHE123456789' }, settings)).toEqual(outside);
    expect(taxRuleFor({ country: 'NO', taxId: null }, { taxRateBps: 2100, sellerCountry: 'NL' })).toEqual(outside);
    expect(OUTSIDE_EU_NOTE).toBe('VAT not applicable: services supplied outside the EU (Art. 44 and 58 Directive 2006/112/EC)');
  });

  it('charges the default rate otherwise', () => {
    expect(taxRuleFor({ country: 'DE', taxId: 'DE123456789' }, settings)).toEqual(defaultRate); // the seller's own country, a business
    expect(taxRuleFor({ country: 'DE', taxId: null }, settings)).toEqual(defaultRate); // the seller's own country, a consumer
    expect(taxRuleFor({ country: 'FR', taxId: null }, settings)).toEqual(defaultRate); // an EU consumer
    expect(taxRuleFor(null, settings)).toEqual(defaultRate); // no profile
    expect(taxRuleFor({ country: 'FR', taxId: 'FRAB123456789' }, { taxRateBps: 1900 })).toEqual(defaultRate); // no seller country
    expect(taxRuleFor({ country: 'US', taxId: '123456789' }, { taxRateBps: 1900 })).toEqual(defaultRate); // no seller country, outside the EU
    expect(taxRuleFor({ country: 'FR', taxId: 'FRAB123456789' }, { taxRateBps: 1900, sellerCountry: 'CH' })).toEqual(defaultRate); // a seller outside the EU
    expect(taxRuleFor({ country: 'US', taxId: null }, { taxRateBps: 1900, sellerCountry: 'CH' })).toEqual(defaultRate); // neither in the EU
  });
});
