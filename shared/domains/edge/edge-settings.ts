import { createHmac } from 'node:crypto';
import type { Certificate, Environment } from '../../db/models.ts';
import { certificateCovers } from '../../wordpress/edge-site.ts';

/**
 * What an environment's edge does for HTTPS, from its row and its installed certificate: whether
 * HTTPS can be forced (a certificate covers the address WordPress answers at), whether it is wanted
 * (the team's choice, on by default), and the HSTS max-age. Pure: the API shows it, the workers apply it.
 */

/** A year on production; none on staging and development (their names come and go, HSTS would pin them). */
export const DEFAULT_HSTS_SECONDS = { production: 31_536_000, staging: 0, development: 0 } as const;

type HttpsFields = Pick<Environment, 'kind' | 'domain' | 'primary_domain' | 'force_https' | 'hsts_max_age_seconds' | 'url_scheme'>;

export type HttpsState = {
  /** An installed certificate covers the primary address. */
  certificate_covers: boolean;
  /** The team's choice, or the default (on). */
  force: boolean;
  /** The scheme WordPress's URLs should use: https when forced and covered. */
  wanted_scheme: 'http' | 'https';
  /** What they use now. */
  url_scheme: 'http' | 'https';
  hsts_max_age_seconds: number;
};

export function httpsState(environment: HttpsFields, certificate: Pick<Certificate, 'names'> | undefined): HttpsState {
  const primary = environment.primary_domain ?? environment.domain;
  const covers = certificate !== undefined && certificateCovers(certificate.names, primary);
  const force = environment.force_https ?? true;
  return {
    certificate_covers: covers,
    force,
    wanted_scheme: force && covers ? 'https' : 'http',
    url_scheme: environment.url_scheme,
    hsts_max_age_seconds: environment.hsts_max_age_seconds ?? DEFAULT_HSTS_SECONDS[environment.kind],
  };
}

/**
 * The token the platform's own probes send as `X-Berth-Probe` (verify steps): it opens a
 * password-protected environment. Derived from the platform's secret and the environment, so it is
 * never stored, differs per environment and cannot be guessed from another's.
 */
export function edgeProbeToken(secretKey: Buffer, environmentId: number): string {
  return createHmac('sha256', secretKey).update(`edge-probe:${environmentId}`).digest('hex').slice(0, 40);
}
