import { lazyPage } from '../../app/lazy-page.ts';
import type { NavItem, PanelRoute } from '../../app/panel-route.ts';

// The signed-in user's own things: profile, sign-in security (2FA, devices, sessions) and API tokens.
export const routes: PanelRoute[] = [
  { path: '/account', page: lazyPage(() => import('./ProfilePage.tsx')) },
  { path: '/account/security', page: lazyPage(() => import('./SecurityPage.tsx')) },
  { path: '/account/api-tokens', page: lazyPage(() => import('./ApiTokensPage.tsx')) },
];

export const nav: NavItem[] = [
  { href: '/account', label: 'Profile', section: 'account' },
  { href: '/account/security', label: 'Security', section: 'account' },
  { href: '/account/api-tokens', label: 'API tokens', section: 'account' },
];
