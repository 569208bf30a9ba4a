import { z } from 'zod';
import { rowId } from '../middleware/validate.ts';
import type { SiteDomain } from '../../shared/db/models.ts';
import { verificationRecord } from '../../shared/domains/site-domains/verification-record.ts';

export const domainsDescription =
  'Custom domains of an environment. A domain is `pending` until the team shows it controls the name: a TXT record ' +
  '`verification.name` = `verification.value` at its DNS, checked by `POST …/verify`; a domain inside a DNS zone the team hosts ' +
  "on Berth (`/v1/dns/zones`) is verified at once. Once verified, an `environment.domains` operation adds it to the node's edge " +
  "(a hot reload) and checks it there. One address is primary (`PUT …/primary-domain`: WordPress's home and site URL); the edge " +
  'sends every other domain there (301, path kept).\n\n' +
  'A domain is a claim on the name, and claims cannot squat a name. Only a verified claim holds it: one per name across all teams, ' +
  'and adding a name verified for another site is 409 `domain_in_use` (naming no team). Pending claims of several teams on one name ' +
  'live side by side, each with its own token, and are never revealed to each other: adding a name someone else claimed but has not ' +
  'verified answers exactly as if nobody had. The first claim to prove control wins (its TXT record, or a zone the team hosts on ' +
  "Berth and delegates to Berth's name servers, which wins at once); every other pending claim on the name becomes `superseded`. " +
  'A pending claim not verified by `verify_by` (72 hours after it was made by default; DOMAIN_CLAIM_TTL_HOURS) becomes `lapsed`. ' +
  'A lapsed or superseded claim holds nothing and cannot be verified (409 `claim_lapsed` / `claim_superseded`); remove it, or add ' +
  "the name again for a new claim (it replaces the team's void one). A team holds one pending or verified claim on a name " +
  '(409 `domain_claimed_by_team`).';

export const domainJson = z
  .object({
    id: z.number().int(),
    name: z.string(),
    status: z
      .enum(['pending', 'verified', 'lapsed', 'superseded'])
      .describe(
        '`pending` until proven; `verified`: it holds the name; `lapsed`: not verified by `verify_by`; `superseded`: another claim proved control of the name first',
      ),
    verified_by: z.enum(['txt', 'hosted_zone']).nullable(),
    verified_at: z.string().nullable(),
    verify_by: z.string().nullable().describe('When a pending claim lapses unverified (kept on a lapsed or superseded claim; null once verified)'),
    verification: z.object({ type: z.literal('TXT'), name: z.string(), value: z.string() }),
    created_at: z.string(),
  })
  .meta({ id: 'Domain' });

export function domainView(domain: SiteDomain): z.infer<typeof domainJson> {
  const record = verificationRecord(domain.name, domain.verification_token);
  return {
    id: domain.id,
    name: domain.name,
    status: domain.status,
    verified_by: domain.verified_by,
    verified_at: domain.verified_at?.toISOString() ?? null,
    verify_by: domain.verify_by?.toISOString() ?? null,
    verification: { type: 'TXT', name: record.name, value: record.value },
    created_at: domain.created_at.toISOString(),
  };
}

export const addDomainBody = z.strictObject({
  name: z.string().min(1).max(253).describe('The host name, such as www.example.com'),
});

export const primaryDomainBody = z.strictObject({
  domain_id: rowId().nullable().describe('A verified domain of the environment, or null for its default address'),
});
