import { lazy } from 'react';
import type { NavItem, PanelRoute } from '../../app/panel-route.ts';

/** `/webhooks/:id` is the page the "webhook endpoint disabled" e-mail links to. */
export const routes: PanelRoute[] = [
  { path: '/webhooks', page: lazy(() => import('./WebhooksPage.tsx')) },
  { path: '/webhooks/:id', page: lazy(() => import('./WebhookPage.tsx')) },
  { path: '/webhooks/:id/deliveries/:deliveryId', page: lazy(() => import('./DeliveryPage.tsx')) },
];

export const nav: NavItem[] = [{ href: '/webhooks', label: 'Webhooks', section: 'team' }];
