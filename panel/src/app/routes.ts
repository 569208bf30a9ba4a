import type { NavItem, PanelRoute } from './panel-route.ts';
import * as auth from '../pages/auth/routes.ts';
import * as account from '../pages/account/routes.ts';
import * as sites from '../pages/sites/routes.ts';
import * as operations from '../pages/operations/routes.ts';
import * as billing from '../pages/billing/routes.ts';
import * as webhooks from '../pages/webhooks/routes.ts';
import * as operator from '../pages/operator/routes.ts';

/** Every page of the panel, gathered from the domain folders under pages/. */
const domains = [auth, sites, operations, account, billing, webhooks, operator];

export const routes: PanelRoute[] = domains.flatMap((domain) => domain.routes);
export const nav: NavItem[] = domains.flatMap((domain) => domain.nav);
