import type { NavItem, PanelRoute } from '../../app/panel-route.ts';

export const routes: PanelRoute[] = [];
export const nav: NavItem[] = [];
