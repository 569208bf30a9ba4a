import { lazy } from 'react';
import type { NavItem, PanelRoute } from '../../app/panel-route.ts';

export const routes: PanelRoute[] = [
  { path: '/operations', page: lazy(() => import('./OperationsPage.tsx')) },
  { path: '/operations/:id', page: lazy(() => import('./OperationPage.tsx')) },
];

export const nav: NavItem[] = [{ href: '/operations', label: 'Operations', section: 'team' }];
