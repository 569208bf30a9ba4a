import { lazyPage } from '../../app/lazy-page.ts';
import type { NavItem, PanelRoute } from '../../app/panel-route.ts';

/** Platform pages for operators (staff above teams); the API answers anyone else 404 (or 403). */
export const routes: PanelRoute[] = [
  { path: '/operator/nodes', page: lazyPage(() => import('./NodesPage.tsx')) },
  { path: '/operator/nodes/:id', page: lazyPage(() => import('./NodePage.tsx')) },
  { path: '/operator/teams', page: lazyPage(() => import('./TeamsPage.tsx')) },
  { path: '/operator/invoices', page: lazyPage(() => import('./OperatorInvoicesPage.tsx')) },
  { path: '/operator/plans', page: lazyPage(() => import('./PlansPage.tsx')) },
];

export const nav: NavItem[] = [
  { href: '/operator/nodes', label: 'Nodes', section: 'operator', operator: true },
  { href: '/operator/teams', label: 'Team limits', section: 'operator', operator: true },
  { href: '/operator/invoices', label: 'All invoices', section: 'operator', operator: true },
  { href: '/operator/plans', label: 'Plans & add-ons', section: 'operator', operator: true },
];
