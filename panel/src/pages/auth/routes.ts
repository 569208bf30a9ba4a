import { lazy } from 'react';
import type { NavItem, PanelRoute } from '../../app/panel-route.ts';

// The pages of the signed-out visitor and of every link Berth e-mails (shared/domains/auth/links.ts, risk-links.ts).
export const routes: PanelRoute[] = [
  { path: '/sign-in', page: lazy(() => import('./SignInPage.tsx')), public: true },
  { path: '/register', page: lazy(() => import('./RegisterPage.tsx')), public: true },
  { path: '/accept-invite', page: lazy(() => import('./AcceptInvitePage.tsx')), public: true },
  { path: '/verify-email', page: lazy(() => import('./VerifyEmailPage.tsx')), public: true },
  { path: '/reset-password', page: lazy(() => import('./ResetPasswordPage.tsx')), public: true },
  { path: '/login/approve', page: lazy(() => import('./LoginDecisionPage.tsx')), public: true },
  { path: '/login/deny', page: lazy(() => import('./LoginDecisionPage.tsx')), public: true },
  // decided from a live session, so it sits behind sign-in
  { path: '/concurrent-login', page: lazy(() => import('./ConcurrentLoginPage.tsx')) },
];

export const nav: NavItem[] = [];
