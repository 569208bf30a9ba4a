import type { Environment } from '../../db/models.ts';
import { Conflict, NotFound } from '../../errors.ts';
import { WORDPRESS_SLUG, type WordpressSubject } from './wordpress.operations.ts';

/**
 * A plugin or theme named in a request, checked against the environment's last inventory when it
 * has one: a name it does not list is refused at once (404) rather than failing an operation later.
 * After a change made outside Berth (wp-admin, SFTP) the inventory is refreshed first.
 */
export function requireListed(environment: Environment, subject: WordpressSubject, name: string): void {
  if (!WORDPRESS_SLUG.test(name)) throw new NotFound(`No ${subject} ${name}`);
  const inventory = environment.wordpress;
  if (!inventory) return;
  const listed =
    subject === 'plugin'
      ? inventory.plugins.some((plugin) => plugin.slug === name || plugin.plugin === name)
      : inventory.themes.some((theme) => theme.theme === name);
  if (!listed)
    throw new NotFound(
      `No ${subject} ${name} on this environment (as of its inventory at ${environment.wordpress_checked_at?.toISOString()}; refresh it after changes made outside Berth)`,
    );
}

/** The active theme, and its parent, cannot be deleted (WordPress would be left without one). */
export function refuseActiveTheme(environment: Environment, name: string): void {
  const active = environment.wordpress?.themes.find((theme) => theme.active);
  if (active && (active.theme === name || active.parent === name))
    throw new Conflict(`${name} is the active theme (or its parent): activate another one first`);
}
