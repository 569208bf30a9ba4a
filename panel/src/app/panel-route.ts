import type { LazyPage } from './lazy-page.ts';

/** One page of the panel; each domain folder under pages/ exports its own list (pages/<domain>/routes.ts). */
export type PanelRoute = {
  /** A wouter pattern: `/sites/:siteId/environments/:env`. */
  path: string;
  page: LazyPage;
  /** Open without a session (sign-in, registration, the pages e-mailed links open). */
  public?: boolean;
};

export type NavItem = {
  href: string;
  label: string;
  section: 'team' | 'account' | 'operator';
  /** Only shown to operators (staff above teams). */
  operator?: boolean;
};
