import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import type { Site } from '@berth/sdk';
import { berth } from '../../api/berth.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page } from '../../components/Page.tsx';
import { Pager } from '../../components/Pager.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';

/** The team's sites; statuses change on screen as their operations move (the team's event stream). */
export default function SitesListPage() {
  const [page, setPage] = useState(1);
  const sites = useQuery({ queryKey: ['sites', page], queryFn: () => berth.sites.list({ page, page_size: 25 }) });
  return (
    <Page
      title="Sites"
      actions={
        <Link href="/sites/new" className="button button-primary">
          New site
        </Link>
      }
    >
      {sites.isPending ? <Loading label="Loading sites" /> : null}
      <ErrorNotice error={sites.error} />
      {sites.data ? (
        <>
          <DataTable<Site>
            caption="Sites"
            rows={sites.data.data}
            rowKey={(site) => site.id}
            empty={
              <>
                No sites yet. <Link href="/sites/new">Create your first WordPress site</Link>.
              </>
            }
            columns={[
              { header: 'Name', cell: (site) => <Link href={`/sites/${site.id}`}>{site.name}</Link> },
              { header: 'Status', cell: (site) => <StatusBadge status={site.status} /> },
              { header: 'Environments', cell: (site) => site.environments.map((environment) => environment.kind).join(', ') },
              { header: 'Region', cell: (site) => site.region },
              { header: 'Production URL', cell: (site) => productionUrl(site) },
            ]}
          />
          <Pager page={page} totalPages={sites.data.pagination.total_pages} onPage={setPage} />
        </>
      ) : null}
    </Page>
  );
}

function productionUrl(site: Site) {
  const production = site.environments.find((environment) => environment.kind === 'production');
  if (!production?.url) return '—';
  return (
    <a href={production.url} target="_blank" rel="noreferrer">
      {production.primary_domain ?? production.domain}
    </a>
  );
}
