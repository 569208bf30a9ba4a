import { createElement, use, type ComponentType } from 'react';

/** A page loaded on demand; `preload()` fetches its chunk ahead (App does it for the page being opened). */
export type LazyPage = ComponentType & { preload: () => Promise<void> };

/**
 * Like React.lazy, with one difference that matters on every first load: a page whose chunk is
 * already in renders at once. React.lazy suspends at least once, and React reveals suspended
 * content on a 300 ms cadence; fetched alongside /v1/me, the chunk is in before the page renders.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  let loaded: ComponentType | null = null;
  let pending: Promise<void> | null = null;
  const preload = () =>
    (pending ??= load().then(
      (module) => {
        loaded = module.default;
      },
      (error: unknown) => {
        // a chunk that failed to load (a deploy replaced it, the network dropped) is fetched again next time
        pending = null;
        throw error;
      },
    ));
  function Page() {
    if (!loaded) use(preload());
    return createElement(loaded!);
  }
  return Object.assign(Page, { preload });
}

/** Whether a wouter pattern (`/sites/:siteId`) matches a path. */
export function matchesPattern(pattern: string, path: string): boolean {
  const expression = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z]+/g, '[^/]+');
  return new RegExp(`^${expression}/?$`).test(path);
}
