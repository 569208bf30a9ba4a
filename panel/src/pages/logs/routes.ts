import { lazyPage } from '../../app/lazy-page.ts';
import type { NavItem, PanelRoute } from '../../app/panel-route.ts';

export const routes: PanelRoute[] = [{ path: '/sites/:siteId/environments/:env/logs', page: lazyPage(() => import('./LogsPage.tsx')) }];

/** Reached through the environment's tabs, not the main navigation. */
export const nav: NavItem[] = [];
