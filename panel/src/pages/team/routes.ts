import { lazyPage } from '../../app/lazy-page.ts';
import type { NavItem, PanelRoute } from '../../app/panel-route.ts';

// The team the session acts in: its settings, members and invites, roles, and audit trail.
export const routes: PanelRoute[] = [
  { path: '/team', page: lazyPage(() => import('./TeamPage.tsx')) },
  { path: '/team/roles', page: lazyPage(() => import('./RolesPage.tsx')) },
  { path: '/team/activity', page: lazyPage(() => import('./ActivityPage.tsx')) },
];

export const nav: NavItem[] = [
  { href: '/team', label: 'Members & settings', section: 'team' },
  { href: '/team/roles', label: 'Roles', section: 'team' },
  { href: '/team/activity', label: 'Activity', section: 'team' },
];
