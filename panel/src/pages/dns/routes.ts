import { lazy } from 'react';
import type { NavItem, PanelRoute } from '../../app/panel-route.ts';

export const routes: PanelRoute[] = [
  { path: '/dns', page: lazy(() => import('./DnsZonesPage.tsx')) },
  { path: '/dns/:zone', page: lazy(() => import('./DnsZonePage.tsx')) },
];

export const nav: NavItem[] = [{ href: '/dns', label: 'DNS', section: 'team' }];
