import type { NavItem, PanelRoute } from './panel-route.ts';
import * as auth from '../pages/auth/routes.ts';
import * as account from '../pages/account/routes.ts';
import * as team from '../pages/team/routes.ts';
import * as sites from '../pages/sites/routes.ts';
import * as operations from '../pages/operations/routes.ts';
import * as backups from '../pages/backups/routes.ts';
import * as customDomains from '../pages/domains/routes.ts';
import * as dns from '../pages/dns/routes.ts';
import * as sftp from '../pages/sftp/routes.ts';
import * as wordpress from '../pages/wordpress/routes.ts';
import * as logs from '../pages/logs/routes.ts';
import * as billing from '../pages/billing/routes.ts';
import * as webhooks from '../pages/webhooks/routes.ts';
import * as operator from '../pages/operator/routes.ts';

/** Every page of the panel, gathered from the domain folders under pages/ (the navigation in this order). */
const domains = [auth, sites, operations, backups, customDomains, dns, sftp, wordpress, logs, team, webhooks, billing, account, operator];

export const routes: PanelRoute[] = domains.flatMap((domain) => domain.routes);
export const nav: NavItem[] = domains.flatMap((domain) => domain.nav);
