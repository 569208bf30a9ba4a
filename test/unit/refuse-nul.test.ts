import { describe, expect, it } from 'vitest';
import { nulPaths } from '../../api/middleware/refuse-nul.ts';

describe('nulPaths', () => {
  it('names every field whose string or key holds U+0000, and nothing for clean bodies', () => {
    expect(nulPaths({ name: 'fine', nested: { list: ['a', 'b'] }, n: 1, t: true, z: null })).toEqual([]);
    expect(nulPaths({ legal_name: 'A\u0000B', city: 'ok', region: '\u0000' })).toEqual(['legal_name', 'region']);
    expect(nulPaths({ address: { lines: ['ok', 'bad\u0000'] } })).toEqual(['address.lines.1']);
    expect(nulPaths({ ['k\u0000ey']: 1 })).toEqual(['k\\u0000ey']);
    expect(nulPaths('\u0000')).toEqual(['body']);
    expect(nulPaths(Array.from({ length: 80 }, () => '\u0000'))).toHaveLength(50);
  });
});
