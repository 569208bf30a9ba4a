import { lazy } from 'react';
import type { NavItem, PanelRoute } from '../../app/panel-route.ts';

export const routes: PanelRoute[] = [
  { path: '/', page: lazy(() => import('./SitesListPage.tsx')) },
  { path: '/sites/new', page: lazy(() => import('./CreateSitePage.tsx')) },
  { path: '/sites/:siteId', page: lazy(() => import('./SitePage.tsx')) },
  { path: '/sites/:siteId/environments/:env', page: lazy(() => import('./EnvironmentPage.tsx')) },
];

export const nav: NavItem[] = [{ href: '/', label: 'Sites', section: 'team' }];
