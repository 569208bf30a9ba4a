import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/temp-dirs.ts';
import { canonicalJson } from '../../api/v1/idempotency.ts';
import { loadConfig } from '../../shared/config/config.ts';

const dataDir = useTempDirs('berth-config-');

describe('RATE_LIMIT_API and RATE_LIMIT_API_BURST', () => {
  it('default to 100 per minute with a burst of 10 per second', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config.rateLimits.api).toEqual({ limit: 100, windowMs: 60_000 });
    expect(config.rateLimits.apiBurst).toEqual({ limit: 10, windowMs: 1_000 });
  });

  it('read <count>/<window> and name the variable when malformed', () => {
    const config = loadConfig({ DATA_DIR: dataDir(), RATE_LIMIT_API: '600/1h', RATE_LIMIT_API_BURST: '20/2s' });
    expect(config.rateLimits.api).toEqual({ limit: 600, windowMs: 3_600_000 });
    expect(config.rateLimits.apiBurst).toEqual({ limit: 20, windowMs: 2_000 });
    expect(() => loadConfig({ DATA_DIR: dataDir(), RATE_LIMIT_API_BURST: 'ten per second' })).toThrow(/RATE_LIMIT_API_BURST/);
  });
});

describe('canonicalJson (the Idempotency-Key fingerprint)', () => {
  it('sorts object keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson({ b: 1, a: 2 })).toBe(canonicalJson({ a: 2, b: 1 }));
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });

  it('tells apart values JSON tells apart', () => {
    expect(canonicalJson({ a: '1' })).not.toBe(canonicalJson({ a: 1 }));
    expect(canonicalJson({ 'a"': 1 })).toBe('{"a\\"":1}');
    expect(canonicalJson(null)).toBe('null');
  });
});
