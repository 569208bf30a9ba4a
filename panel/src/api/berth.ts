import { Berth } from '@berth/sdk';
import { sessionFetch } from './session-fetch.ts';

const signedOutListeners = new Set<() => void>();

/** Called when the session cannot be renewed: the app goes back to the sign-in page. */
export function onSignedOut(listener: () => void): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

/**
 * The panel's only way to the API: the generated SDK on the same origin, authenticated by the
 * session cookies (never a token in script-readable storage).
 */
export const berth = new Berth({
  baseUrl: window.location.origin,
  token: '',
  maxRetries: 2,
  fetch: sessionFetch(() => signedOutListeners.forEach((listener) => listener())),
});
