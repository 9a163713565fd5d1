/** Cell text shared by the object storage screens. */

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

/** Bytes as people read them (binary multiples): 512 B, 4.2 KB, 12.1 GB. */
export function bytesText(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '';
  let v = bytes;
  let unit = 0;
  while (v >= 1024 && unit < UNITS.length - 1) {
    v /= 1024;
    unit++;
  }
  return unit === 0 ? `${v} B` : `${v >= 100 ? Math.round(v) : v.toFixed(1)} ${UNITS[unit]}`;
}

/** A name inside a listing, relative to the prefix being browsed. */
export const relativeName = (name: string, prefix: string) => (prefix && name.startsWith(prefix) ? name.slice(prefix.length) : name);
