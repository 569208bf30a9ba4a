import { lazyPage } from '../../app/lazy-page.ts';
import type { NavItem, PanelRoute } from '../../app/panel-route.ts';

/** `/webhooks/:id` is the page the "webhook endpoint disabled" e-mail links to. */
export const routes: PanelRoute[] = [
  { path: '/webhooks', page: lazyPage(() => import('./WebhooksPage.tsx')) },
  { path: '/webhooks/:id', page: lazyPage(() => import('./WebhookPage.tsx')) },
  { path: '/webhooks/:id/deliveries/:deliveryId', page: lazyPage(() => import('./DeliveryPage.tsx')) },
];

export const nav: NavItem[] = [{ href: '/webhooks', label: 'Webhooks', section: 'team' }];
