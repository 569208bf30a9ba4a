import { describe, expect, it } from 'vitest';
import { edgeProbeToken, httpsState } from '../../shared/domains/edge/edge-settings.ts';
import { addressPairs } from '../../workers/edge/url-scheme.ts';

const production = {
  kind: 'production' as const,
  domain: 'production-blog.sites.example.net',
  primary_domain: 'www.example.com',
  force_https: null,
  hsts_max_age_seconds: null,
  url_scheme: 'http' as const,
};

describe("an environment's HTTPS state", () => {
  it('wants https once a certificate covers the primary address, forcing being the default', () => {
    expect(httpsState(production, undefined)).toMatchObject({ certificate_covers: false, force: true, wanted_scheme: 'http' });
    expect(httpsState(production, { names: ['www.example.com'] })).toMatchObject({ certificate_covers: true, wanted_scheme: 'https' });
    expect(httpsState(production, { names: ['*.example.com'] }).wanted_scheme).toBe('https');
    // a certificate of the default address only does not cover a custom primary
    expect(httpsState(production, { names: ['production-blog.sites.example.net'] }).wanted_scheme).toBe('http');
    expect(httpsState({ ...production, force_https: false }, { names: ['www.example.com'] })).toMatchObject({ force: false, wanted_scheme: 'http' });
  });

  it('sends HSTS for a year on production and none elsewhere unless told', () => {
    expect(httpsState(production, undefined).hsts_max_age_seconds).toBe(31_536_000);
    expect(httpsState({ ...production, kind: 'staging' }, undefined).hsts_max_age_seconds).toBe(0);
    expect(httpsState({ ...production, kind: 'staging', hsts_max_age_seconds: 600 }, undefined).hsts_max_age_seconds).toBe(600);
  });

  it("derives a probe token per environment from the platform's secret", () => {
    const key = Buffer.alloc(32, 7);
    expect(edgeProbeToken(key, 1)).toMatch(/^[a-f0-9]{40}$/);
    expect(edgeProbeToken(key, 1)).toBe(edgeProbeToken(key, 1));
    expect(edgeProbeToken(key, 2)).not.toBe(edgeProbeToken(key, 1));
    expect(edgeProbeToken(Buffer.alloc(32, 8), 1)).not.toBe(edgeProbeToken(key, 1));
  });
});

describe("a copy's link rewrite", () => {
  it("moves links into the target's scheme only when the schemes differ, and the address when it differs", () => {
    expect(addressPairs('prod.test', 'staging.test', { from: 'https', to: 'http' })).toEqual([
      ['https://prod.test', 'http://staging.test'],
      ['//prod.test', '//staging.test'],
    ]);
    expect(addressPairs('prod.test', 'staging.test', { from: 'http', to: 'http' })).toEqual([['//prod.test', '//staging.test']]);
    expect(addressPairs('prod.test', 'prod.test', { from: 'http', to: 'https' })).toEqual([['http://prod.test', 'https://prod.test']]);
    expect(addressPairs('prod.test', 'prod.test', { to: 'http' })).toEqual([]);
  });
});
