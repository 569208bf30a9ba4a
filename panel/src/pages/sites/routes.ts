import { lazyPage } from '../../app/lazy-page.ts';
import type { NavItem, PanelRoute } from '../../app/panel-route.ts';

export const routes: PanelRoute[] = [
  { path: '/', page: lazyPage(() => import('./SitesListPage.tsx')) },
  { path: '/sites/new', page: lazyPage(() => import('./CreateSitePage.tsx')) },
  { path: '/sites/:siteId', page: lazyPage(() => import('./SitePage.tsx')) },
  { path: '/sites/:siteId/environments/:env', page: lazyPage(() => import('./EnvironmentPage.tsx')) },
];

export const nav: NavItem[] = [{ href: '/', label: 'Sites', section: 'team' }];
