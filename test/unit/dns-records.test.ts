import { describe, expect, it } from 'vitest';
import { fromZoneContent, nameInZone, recordSetFrom, toZoneContent, zoneName } from '../../shared/domains/dns/records.ts';
import { ValidationFailed } from '../../shared/errors.ts';

const fieldsOf = (run: () => unknown): string[] => {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationFailed) return error.problems.map((problem) => problem.field ?? '');
    throw error;
  }
  return [];
};

describe('DNS names', () => {
  it('normalises zone names and refuses what is no domain', () => {
    expect(zoneName('Example.COM.')).toBe('example.com');
    for (const bad of ['com', 'a..b', '-a.com', 'a-.com', 'a_b.com', `${'a'.repeat(64)}.com`, `${'a.'.repeat(127)}com`, '*.example.com'])
      expect(
        fieldsOf(() => zoneName(bad)),
        bad,
      ).toEqual(['name']);
  });

  it('puts relative names under the zone and keeps absolute ones inside it', () => {
    expect(nameInZone('example.com', '@')).toBe('example.com');
    expect(nameInZone('example.com', 'WWW')).toBe('www.example.com');
    expect(nameInZone('example.com', '*.dev')).toBe('*.dev.example.com');
    expect(nameInZone('example.com', '_dmarc')).toBe('_dmarc.example.com');
    expect(nameInZone('example.com', 'www.example.com.')).toBe('www.example.com');
    expect(nameInZone('example.com', 'example.com')).toBe('example.com');
    expect(fieldsOf(() => nameInZone('example.com', 'www.example.org.'))).toEqual(['name']);
    // a suffix that is not a label boundary is not inside
    expect(fieldsOf(() => nameInZone('example.com', 'badexample.com.'))).toEqual(['name']);
    expect(fieldsOf(() => nameInZone('example.com', 'a.*.b'))).toEqual(['name']);
  });
});

describe('record sets', () => {
  it('normalises values and drops repeats', () => {
    expect(recordSetFrom('example.com', { name: '@', type: 'MX', values: ['10   Mail.Example.com.', '010 mail.example.com'] })).toEqual({
      name: 'example.com',
      type: 'MX',
      ttl: 3600,
      values: ['10 mail.example.com'],
    });
    expect(recordSetFrom('example.com', { name: 'x', type: 'CAA', ttl: 60, values: ['0 ISSUE letsencrypt.org'] }).values).toEqual([
      '0 issue "letsencrypt.org"',
    ]);
    expect(recordSetFrom('example.com', { name: '_x._udp', type: 'SRV', values: ['0 0 0 .'] }).values).toEqual(['0 0 0 .']);
  });

  it('names every bad field at once', () => {
    expect(fieldsOf(() => recordSetFrom('example.com', { name: 'a b', type: 'A', ttl: 59, values: ['1.2.3.4', '1.2.3'] }))).toEqual([
      'name',
      'ttl',
      'values.1',
    ]);
    expect(fieldsOf(() => recordSetFrom('example.com', { name: 'x', type: 'A', values: [] }))).toEqual(['values']);
    expect(fieldsOf(() => recordSetFrom('example.com', { name: '@', type: 'CNAME', values: ['a.example.org', 'b.example.org'] }))).toEqual(['name', 'values']);
    expect(fieldsOf(() => recordSetFrom('example.com', { name: 'x', type: 'SRV', values: ['1 2 70000 a.example.org'] }))).toEqual(['values.0']);
    expect(fieldsOf(() => recordSetFrom('example.com', { name: 'x', type: 'CAA', values: ['256 issue "x"'] }))).toEqual(['values.0']);
    expect(fieldsOf(() => recordSetFrom('example.com', { name: 'x', type: 'TXT', values: ['naïve'] }))).toEqual(['values.0']);
  });

  it("writes the zone file's form and reads it back", () => {
    const long = 'x'.repeat(300);
    expect(toZoneContent('TXT', long)).toBe(`"${'x'.repeat(255)}" "${'x'.repeat(45)}"`);
    expect(toZoneContent('TXT', 'say "hi" \\ bye')).toBe('"say \\"hi\\" \\\\ bye"');
    for (const value of [long, 'say "hi" \\ bye', 'v=spf1 -all']) expect(fromZoneContent('TXT', toZoneContent('TXT', value))).toBe(value);
    expect(toZoneContent('MX', '10 mail.example.com')).toBe('10 mail.example.com.');
    expect(toZoneContent('SRV', '0 0 0 .')).toBe('0 0 0 .');
    expect(fromZoneContent('CNAME', 'Target.Example.net.')).toBe('target.example.net');
  });
});
