/** A timestamp of the API (ISO 8601, UTC) in the reader's own locale and time zone; a dash for none. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** An IP with the place the server located it in, when it knows. */
export function formatPlace(ip: string | null, country?: string | null, city?: string | null): string {
  const place = [city, country].filter(Boolean).join(', ');
  if (!ip) return place || '—';
  return place ? `${ip} (${place})` : ip;
}
