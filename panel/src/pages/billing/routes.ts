import { lazyPage } from '../../app/lazy-page.ts';
import type { NavItem, PanelRoute } from '../../app/panel-route.ts';

/** `/billing/invoices/:id` and `/billing/credit-notes` are the pages Berth's billing e-mails link to. */
export const routes: PanelRoute[] = [
  { path: '/billing', page: lazyPage(() => import('./BillingPage.tsx')) },
  { path: '/billing/profile', page: lazyPage(() => import('./BillingProfilePage.tsx')) },
  { path: '/billing/invoices/:id', page: lazyPage(() => import('./InvoicePage.tsx')) },
  { path: '/billing/credit-notes', page: lazyPage(() => import('./CreditNotesPage.tsx')) },
  { path: '/billing/credit-notes/:id', page: lazyPage(() => import('./CreditNotePage.tsx')) },
];

export const nav: NavItem[] = [{ href: '/billing', label: 'Billing', section: 'team' }];
