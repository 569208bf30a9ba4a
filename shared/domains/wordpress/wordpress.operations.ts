import { z } from 'zod';
import type { HelperCommand } from '../../wordpress/runtime.ts';
import { operationKind } from '../operations/operation-kind.ts';
import { ENVIRONMENT_DEADLINE_SECONDS, environmentInput } from '../sites/sites.operations.ts';

/**
 * Changes to an environment's WordPress, each an operation carried out by the PHP helper in the
 * environment's container (workers/wordpress/). Every one ends by reading the inventory again, so
 * what the API shows is what WordPress now runs.
 */

/** Plugin and theme identifiers in paths: a directory or single-file name (`akismet`, `hello`, `twentytwentyfour`). */
export const WORDPRESS_SLUG = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** A package uploaded beforehand (POST /v1/uploads), fetched onto the node and installed. */
const installInput = environmentInput.extend({
  upload_id: z.uuid(),
  filename: z.string(),
  sha256: z.string(),
  size_bytes: z.number().int().nonnegative(),
  activate: z.boolean(),
  overwrite: z.boolean(),
});
// every change may change what pages show: the edge's cached pages of the environment go
const INSTALL_STEPS = [{ name: 'fetch', cancellable: true }, { name: 'apply' }, { name: 'inventory' }, { name: 'purge_cache' }] as const;
const CHANGE_STEPS = [{ name: 'apply' }, { name: 'inventory' }, { name: 'purge_cache' }] as const;
const pluginInput = environmentInput.extend({ plugin: z.string().regex(WORDPRESS_SLUG) });
const themeInput = environmentInput.extend({ theme: z.string().regex(WORDPRESS_SLUG) });
const deadlineSeconds = ENVIRONMENT_DEADLINE_SECONDS;

export const wordpressRefresh = operationKind({ kind: 'wordpress.refresh', input: environmentInput, steps: [{ name: 'inventory' }], deadlineSeconds });
export const pluginInstall = operationKind({ kind: 'wordpress.plugin_install', input: installInput, steps: INSTALL_STEPS, deadlineSeconds });
export const pluginActivate = operationKind({ kind: 'wordpress.plugin_activate', input: pluginInput, steps: CHANGE_STEPS, deadlineSeconds });
export const pluginDeactivate = operationKind({ kind: 'wordpress.plugin_deactivate', input: pluginInput, steps: CHANGE_STEPS, deadlineSeconds });
export const pluginDelete = operationKind({ kind: 'wordpress.plugin_delete', input: pluginInput, steps: CHANGE_STEPS, deadlineSeconds });
export const themeInstall = operationKind({ kind: 'wordpress.theme_install', input: installInput, steps: INSTALL_STEPS, deadlineSeconds });
export const themeActivate = operationKind({ kind: 'wordpress.theme_activate', input: themeInput, steps: CHANGE_STEPS, deadlineSeconds });
export const themeDelete = operationKind({ kind: 'wordpress.theme_delete', input: themeInput, steps: CHANGE_STEPS, deadlineSeconds });

/** The longest a WP-CLI command may run (seconds), and what it gets unless asked. */
export const WP_CLI_TIMEOUT = { default: 300, max: 900 } as const;

/**
 * A WP-CLI command (docs/wp-cli.md), checked by shared/domains/wordpress/wp-cli-command.ts before it
 * starts; after one that may change WordPress the inventory is read again (what the API shows) and
 * the cached pages purged; `read_only` ones skip both.
 */
export const wordpressCli = operationKind({
  kind: 'wordpress.cli',
  input: environmentInput.extend({
    argv: z.array(z.string()).min(1).max(100),
    timeout_seconds: z.number().int().min(1).max(WP_CLI_TIMEOUT.max),
    read_only: z.boolean(),
  }),
  steps: [{ name: 'run' }, { name: 'inventory' }, { name: 'purge_cache' }],
  deadlineSeconds,
});

/** Table names a search-replace may be limited to: the site's own (its prefix), checked by the helper. */
export const TABLE_NAME = /^[A-Za-z0-9_$]{1,64}$/;

/** A serialized-safe search-replace over the site's tables (or `tables`), counted per table; a dry run changes nothing. */
export const wordpressSearchReplace = operationKind({
  kind: 'wordpress.search_replace',
  input: environmentInput.extend({
    search: z.string().min(1).max(2000),
    replace: z.string().max(2000),
    dry_run: z.boolean(),
    tables: z.array(z.string().regex(TABLE_NAME)).max(200).optional(),
  }),
  steps: [{ name: 'replace' }, { name: 'purge_cache' }],
  deadlineSeconds,
});

export const wordpressOperations = [
  wordpressRefresh,
  pluginInstall,
  pluginActivate,
  pluginDeactivate,
  pluginDelete,
  themeInstall,
  themeActivate,
  themeDelete,
  wordpressCli,
  wordpressSearchReplace,
] as const;

export type WordpressSubject = 'plugin' | 'theme';
export type PackageInstallKind = typeof pluginInstall.kind | typeof themeInstall.kind;
export type PackageChangeKind =
  typeof pluginActivate.kind | typeof pluginDeactivate.kind | typeof pluginDelete.kind | typeof themeActivate.kind | typeof themeDelete.kind;

/** The helper command (shared/wordpress/berth-helper.php) that makes each change. */
export const WORDPRESS_HELPER_COMMANDS: Record<PackageInstallKind | PackageChangeKind, HelperCommand> = {
  'wordpress.plugin_install': 'plugin-install-zip',
  'wordpress.plugin_activate': 'plugin-activate',
  'wordpress.plugin_deactivate': 'plugin-deactivate',
  'wordpress.plugin_delete': 'plugin-delete',
  'wordpress.theme_install': 'theme-install-zip',
  'wordpress.theme_activate': 'theme-activate',
  'wordpress.theme_delete': 'theme-delete',
};

/** What each change acts on: the input field naming it, from the request path. */
export const WORDPRESS_CHANGE_SUBJECTS: Record<PackageChangeKind, WordpressSubject> = {
  'wordpress.plugin_activate': 'plugin',
  'wordpress.plugin_deactivate': 'plugin',
  'wordpress.plugin_delete': 'plugin',
  'wordpress.theme_activate': 'theme',
  'wordpress.theme_delete': 'theme',
};
