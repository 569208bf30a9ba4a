import { lazy } from 'react';
import type { NavItem, PanelRoute } from '../../app/panel-route.ts';

/** `/billing/invoices/:id` and `/billing/credit-notes` are the pages Berth's billing e-mails link to. */
export const routes: PanelRoute[] = [
  { path: '/billing', page: lazy(() => import('./BillingPage.tsx')) },
  { path: '/billing/profile', page: lazy(() => import('./BillingProfilePage.tsx')) },
  { path: '/billing/invoices/:id', page: lazy(() => import('./InvoicePage.tsx')) },
  { path: '/billing/credit-notes', page: lazy(() => import('./CreditNotesPage.tsx')) },
  { path: '/billing/credit-notes/:id', page: lazy(() => import('./CreditNotePage.tsx')) },
];

export const nav: NavItem[] = [{ href: '/billing', label: 'Billing', section: 'team' }];
