/** A located sign-in: where (from the GeoIP database) and when. */
export type LocatedSignIn = { latitude: number; longitude: number; at: Date };

/** Faster than an airliner, counting the wait at both airports. */
export const IMPOSSIBLE_SPEED_KMH = 1000;
/** Closer than this, GeoIP's own error dominates: the same metro area, another ISP's gateway. */
export const IGNORED_DISTANCE_KM = 100;

/** Could one person have signed in at both places in the time between the two sign-ins? */
export function isImpossibleTravel(previous: LocatedSignIn, next: LocatedSignIn): boolean {
  const km = distanceKm(previous, next);
  if (km < IGNORED_DISTANCE_KM) return false;
  const hours = Math.abs(next.at.getTime() - previous.at.getTime()) / 3_600_000;
  return hours === 0 || km / hours > IMPOSSIBLE_SPEED_KMH;
}

/** Great-circle distance (haversine, mean Earth radius). */
export function distanceKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}
