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

/** Every page of the panel, gathered from the domain folders under pages/. */
const domains = [auth, sites, operations, backups, customDomains, dns, sftp, wordpress, team, account];

export const routes: PanelRoute[] = domains.flatMap((domain) => domain.routes);
export const nav: NavItem[] = domains.flatMap((domain) => domain.nav);
