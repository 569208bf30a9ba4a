import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import type { Environment } from '@berth/sdk';
import { berth } from '../../api/berth.ts';
import { isNotFound } from '../../api/errors.ts';
import { NotFoundPage } from '../../app/NotFoundPage.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page } from '../../components/Page.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';

export type EnvironmentKind = Environment['kind'];

/** The site and environment of an environment page's URL (/sites/:siteId/environments/:env/...). */
export function useEnvironmentParams(): { siteId: number; env: EnvironmentKind } {
  const { siteId, env } = useParams<{ siteId: string; env: string }>();
  return { siteId: Number(siteId), env: env as EnvironmentKind };
}

const tabs = [
  { path: '', label: 'Overview' },
  { path: '/backups', label: 'Backups' },
  { path: '/domains', label: 'Domains' },
  { path: '/sftp', label: 'SFTP' },
  { path: '/wordpress', label: 'Plugins & themes' },
  { path: '/logs', label: 'Logs' },
] as const;

/**
 * The frame of every environment page: the site and environment names, the status, and the tabs
 * (each tab is a page of its own domain folder). Children get the environment as loaded.
 */
export function EnvironmentFrame({
  title,
  children,
}: {
  title: string;
  children: (environment: Environment, site: { id: number; name: string }) => ReactNode;
}) {
  const { siteId, env } = useEnvironmentParams();
  const [location] = useLocation();
  const site = useQuery({ queryKey: ['sites', 'one', siteId], queryFn: () => berth.sites.get({ id: siteId }) });
  const environment = useQuery({ queryKey: ['environments', siteId, env], queryFn: () => berth.environments.get({ id: siteId, env }) });
  const base = `/sites/${siteId}/environments/${env}`;
  const siteName = site.data?.name ?? 'Site';
  if (isNotFound(site.error) || isNotFound(environment.error)) return <NotFoundPage />;
  return (
    <Page title={`${siteName} · ${env} · ${title}`} back={{ href: `/sites/${siteId}`, label: siteName }}>
      <nav className="tabs" aria-label="Environment">
        {tabs.map((tab) => (
          <Link key={tab.label} href={base + tab.path} aria-current={location === base + tab.path ? 'page' : undefined}>
            {tab.label}
          </Link>
        ))}
      </nav>
      {environment.isPending ? <Loading label="Loading the environment" /> : null}
      <ErrorNotice error={environment.error ?? site.error} />
      {environment.data ? (
        <>
          <p>
            <StatusBadge status={environment.data.status} />{' '}
            {environment.data.url ? (
              <a href={environment.data.url} target="_blank" rel="noreferrer">
                {environment.data.url}
              </a>
            ) : null}
          </p>
          {children(environment.data, { id: siteId, name: siteName })}
        </>
      ) : null}
    </Page>
  );
}
