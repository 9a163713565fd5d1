/** Numbers for chart labels: short, with k/M/G, and a unit per series. */

export function compact(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e9) return `${(v / 1e9).toFixed(1)}G`;
  if (a >= 1e6) return `${(v / 1e6).toFixed(1)}M`;
  if (a >= 1e4) return `${Math.round(v / 1e3)}k`;
  if (a >= 1e3) return `${(v / 1e3).toFixed(1)}k`;
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}

export const percent = (v: number) => `${v.toFixed(1)}%`;
export const bitsPerSecond = (v: number) => `${compact(v)}b/s`;
export const perSecond = (v: number) => `${compact(v)}/s`;
