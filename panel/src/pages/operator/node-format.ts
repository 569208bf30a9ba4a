import { bytes } from '../billing/format.ts';

/** How long ago, in words short enough for a table cell ("42 s ago", "3 h ago"). */
export function age(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (seconds < 120) return `${seconds} s ago`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 172800) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86400)} days ago`;
}

export function usage(used: number, total: number): string {
  if (total <= 0) return '—';
  return `${bytes(used)} of ${bytes(total)} (${Math.round((used / total) * 100)} %)`;
}
