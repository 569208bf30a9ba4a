import type { Environment } from '@berth/sdk';
import type { Domain } from './domain.ts';

/**
 * What the customer must set at their DNS provider, one block per pending domain, as the API gives
 * it (type, name, value): the part people copy, so it is plain selectable text, not a table cell.
 */
export function VerificationRecords({ domains, environment }: { domains: Domain[]; environment: Environment }) {
  if (domains.length === 0) return null;
  return (
    <div className="domains-records">
      <h3>DNS records to add</h3>
      <p>
        Add each record at the DNS provider of the domain, then choose <strong>Verify</strong>. A domain in a DNS zone hosted on Berth (see DNS) is verified at
        once. For the site to answer there, the domain must also point at this environment, e.g. a CNAME record to <code>{environment.domain}</code>.
      </p>
      {domains.map((domain) => (
        <dl key={domain.id} className="details domains-record" aria-label={`Record that verifies ${domain.name}`}>
          <dt>For</dt>
          <dd>{domain.name}</dd>
          <dt>Type</dt>
          <dd>
            <code>{domain.verification.type}</code>
          </dd>
          <dt>Name</dt>
          <dd>
            <code className="domains-copy">{domain.verification.name}</code>
          </dd>
          <dt>Value</dt>
          <dd>
            <code className="domains-copy">{domain.verification.value}</code>
          </dd>
        </dl>
      ))}
    </div>
  );
}
