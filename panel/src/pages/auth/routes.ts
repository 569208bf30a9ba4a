import { lazyPage } from '../../app/lazy-page.ts';
import type { NavItem, PanelRoute } from '../../app/panel-route.ts';

// The pages of the signed-out visitor and of every link Berth e-mails (shared/domains/auth/links.ts, risk-links.ts).
export const routes: PanelRoute[] = [
  { path: '/sign-in', page: lazyPage(() => import('./SignInPage.tsx')), public: true },
  { path: '/register', page: lazyPage(() => import('./RegisterPage.tsx')), public: true },
  { path: '/accept-invite', page: lazyPage(() => import('./AcceptInvitePage.tsx')), public: true },
  { path: '/verify-email', page: lazyPage(() => import('./VerifyEmailPage.tsx')), public: true },
  { path: '/reset-password', page: lazyPage(() => import('./ResetPasswordPage.tsx')), public: true },
  { path: '/login/approve', page: lazyPage(() => import('./LoginDecisionPage.tsx')), public: true },
  { path: '/login/deny', page: lazyPage(() => import('./LoginDecisionPage.tsx')), public: true },
  // decided from a live session, so it sits behind sign-in
  { path: '/concurrent-login', page: lazyPage(() => import('./ConcurrentLoginPage.tsx')) },
];

export const nav: NavItem[] = [];
