import type { HelperCommand } from '../../wordpress/runtime.ts';
import type { StepPlan } from '../operations/operations.ts';

/**
 * Changes to an environment's WordPress, each an operation carried out by the PHP helper in the
 * environment's container (workers/wordpress/). Every one ends by reading the inventory again, so
 * what the API shows is what WordPress now runs.
 */
export type WordpressChange = {
  kind: string;
  /** The helper command that makes the change (shared/wordpress/berth-helper.php). */
  helper: HelperCommand | null;
  /** The input field naming what it acts on (`plugin`, `theme`), from the request path. */
  subject?: 'plugin' | 'theme';
  /** An uploaded zip is fetched onto the node first. */
  upload?: boolean;
  steps: readonly StepPlan[];
};

const change = (kind: string, helper: HelperCommand, subject: 'plugin' | 'theme'): WordpressChange => ({
  kind,
  helper,
  subject,
  steps: [{ name: 'apply' }, { name: 'inventory' }],
});

const install = (kind: string, helper: HelperCommand): WordpressChange => ({
  kind,
  helper,
  upload: true,
  steps: [{ name: 'fetch', cancellable: true }, { name: 'apply' }, { name: 'inventory' }],
});

export const WORDPRESS_CHANGES = {
  refresh: { kind: 'wordpress.refresh', helper: null, steps: [{ name: 'inventory' }] },
  pluginInstall: install('wordpress.plugin_install', 'plugin-install-zip'),
  pluginActivate: change('wordpress.plugin_activate', 'plugin-activate', 'plugin'),
  pluginDeactivate: change('wordpress.plugin_deactivate', 'plugin-deactivate', 'plugin'),
  pluginDelete: change('wordpress.plugin_delete', 'plugin-delete', 'plugin'),
  themeInstall: install('wordpress.theme_install', 'theme-install-zip'),
  themeActivate: change('wordpress.theme_activate', 'theme-activate', 'theme'),
  themeDelete: change('wordpress.theme_delete', 'theme-delete', 'theme'),
} as const satisfies Record<string, WordpressChange>;

/** Plugin and theme identifiers in paths: a directory or single-file name (`akismet`, `hello`, `twentytwentyfour`). */
export const WORDPRESS_SLUG = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
