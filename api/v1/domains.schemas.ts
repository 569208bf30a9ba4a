import { z } from 'zod';
import { rowId } from '../middleware/validate.ts';
import type { SiteDomain } from '../../shared/db/models.ts';
import { verificationRecord } from '../../shared/domains/site-domains/domain-plans.ts';

export const domainsDescription =
  'Custom domains of an environment. A domain is `pending` until the team shows it controls the name: a TXT record ' +
  '`verification.name` = `verification.value` at its DNS, checked by `POST …/verify`; a domain inside a DNS zone the team hosts ' +
  'on Berth (`/v1/dns/zones`) is verified at once. Once verified, an `environment.domains` operation adds it to the node\'s edge ' +
  '(a hot reload) and checks it there. One address is primary (`PUT …/primary-domain`: WordPress\'s home and site URL); the edge ' +
  'sends every other domain there (301, path kept). A name is attached to one environment across all teams.';

export const domainJson = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(['pending', 'verified']),
  verified_by: z.enum(['txt', 'hosted_zone']).nullable(),
  verified_at: z.string().nullable(),
  verification: z.object({ type: z.literal('TXT'), name: z.string(), value: z.string() }),
  created_at: z.string(),
});

export function domainView(domain: SiteDomain): z.infer<typeof domainJson> {
  const record = verificationRecord(domain.name, domain.verification_token);
  return {
    id: domain.id,
    name: domain.name,
    status: domain.status,
    verified_by: domain.verified_by,
    verified_at: domain.verified_at?.toISOString() ?? null,
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
