import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

type LockEntry = { optionalDependencies?: Record<string, string> };

describe('package-lock.json', () => {
  it('lists every optional dependency a locked package declares, or `npm ci` refuses it', () => {
    const packages = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')).packages as Record<string, LockEntry>;
    const missing: string[] = [];
    for (const [key, entry] of Object.entries(packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        if (!packages[`${key ? `${key}/` : ''}node_modules/${name}`] && !packages[`node_modules/${name}`]) missing.push(`${name} (of ${key || 'the project'})`);
      }
    }
    expect(missing, 'run `node ops/complete-lockfile.mjs` after `npm install`').toEqual([]);
  });
});
