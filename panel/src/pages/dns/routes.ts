import { lazyPage } from '../../app/lazy-page.ts';
import type { NavItem, PanelRoute } from '../../app/panel-route.ts';

export const routes: PanelRoute[] = [
  { path: '/dns', page: lazyPage(() => import('./DnsZonesPage.tsx')) },
  { path: '/dns/:zone', page: lazyPage(() => import('./DnsZonePage.tsx')) },
];

export const nav: NavItem[] = [{ href: '/dns', label: 'DNS', section: 'team' }];
