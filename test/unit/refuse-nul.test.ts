import { describe, expect, it } from 'vitest';
import { nulPath } from '../../api/middleware/refuse-nul.ts';

describe('nulPath', () => {
  it('names the first field whose string or key holds U+0000, and nothing for clean bodies', () => {
    expect(nulPath({ name: 'fine', nested: { list: ['a', 'b'] }, n: 1, t: true, z: null })).toBeNull();
    expect(nulPath({ legal_name: 'A\u0000B' })).toBe('legal_name');
    expect(nulPath({ address: { lines: ['ok', 'bad\u0000'] } })).toBe('address.lines.1');
    expect(nulPath({ ['k\u0000ey']: 1 })).toBe('k\\u0000ey');
    expect(nulPath('\u0000')).toBe('body');
  });
});
