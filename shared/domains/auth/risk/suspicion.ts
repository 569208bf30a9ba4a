import type { GeoLocation } from './geo.ts';
import { isImpossibleTravel } from './impossible-travel.ts';
import type { SignInHistory } from './sign-in-history.ts';

export type SuspicionReason = 'new_country' | 'new_network' | 'impossible_travel';

/**
 * Why a sign-in from `location`/`network` at `at` is suspicious for a user with this history; none
 * for a user's very first sign-in. An address the database cannot place is judged by its network only.
 */
export function suspicionReasons(history: SignInHistory, signIn: { location: GeoLocation | null; network: string | null; at: Date }): SuspicionReason[] {
  if (history.first) return [];
  const reasons: SuspicionReason[] = [];
  const { location, network } = signIn;
  if (location?.country && !history.countries.has(location.country)) reasons.push('new_country');
  if (network && !history.networks.has(network)) reasons.push('new_network');
  if (location?.latitude != null && location.longitude != null && history.lastLocated) {
    const here = { latitude: location.latitude, longitude: location.longitude, at: signIn.at };
    if (isImpossibleTravel(history.lastLocated, here)) reasons.push('impossible_travel');
  }
  return reasons;
}
