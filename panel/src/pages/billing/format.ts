/** Amounts come in integer minor units of their currency (4900 EUR = 49.00 EUR). */
export function money(minor: number, currency: string): string {
  const format = new Intl.NumberFormat(undefined, { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** digits);
}

export function bytes(count: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = count;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

export function day(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleDateString() : '—';
}

export function moment(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : '—';
}

export function perInterval(minor: number, currency: string, interval: 'month' | 'year'): string {
  return `${money(minor, currency)} / ${interval}`;
}
