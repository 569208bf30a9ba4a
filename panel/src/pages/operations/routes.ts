import { lazyPage } from '../../app/lazy-page.ts';
import type { NavItem, PanelRoute } from '../../app/panel-route.ts';

export const routes: PanelRoute[] = [
  { path: '/operations', page: lazyPage(() => import('./OperationsPage.tsx')) },
  { path: '/operations/:id', page: lazyPage(() => import('./OperationPage.tsx')) },
];

export const nav: NavItem[] = [{ href: '/operations', label: 'Operations', section: 'team' }];
