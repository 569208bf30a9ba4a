import { matchesPattern } from './lazy-page.ts';
import { routes } from './routes.ts';

/** The route of a path, if the panel has one. */
export function routeAt(path: string) {
  return routes.find((candidate) => matchesPattern(candidate.path, path));
}

/** Fetches the chunk of the page at `path`; resolves when it is in (or failed: the page's render shows why). */
export function preloadPage(path: string): Promise<void> {
  const route = routeAt(path);
  return route ? route.page.preload().catch(() => undefined) : Promise.resolve();
}

/** A page whose link the pointer or the focus is on is fetched before the click, so it opens without a wait. */
export function preloadLinkedPages(): void {
  for (const type of ['pointerover', 'focusin'] as const) {
    document.addEventListener(type, (event) => {
      const link = event.target instanceof Element ? event.target.closest('a[href^="/"]') : null;
      if (link instanceof HTMLAnchorElement) void preloadPage(link.pathname);
    });
  }
}
