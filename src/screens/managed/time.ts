/** Times as the API writes them (UTC, no zone suffix) and how long ago they were. */
import { parseApiTime } from '../../model/time.js';

/** An API timestamp as epoch milliseconds; NaN when it is not one. */
export function apiTime(value: string | null | undefined): number {
  return value ? parseApiTime(value) : Number.NaN;
}

/** "just now", "4m ago", "3h ago", "12d ago". */
export function ago(at: number, now = Date.now()): string {
  if (!Number.isFinite(at)) return '—';
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 10) return 'just now';
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86400)}d ago`;
}

export const agoText = (value: string | null | undefined, now = Date.now()) => (value ? ago(apiTime(value), now) : 'never');

/** "2024-05-01 14:03:22 UTC". */
export function utc(value: string | null | undefined): string {
  const t = apiTime(value);
  return Number.isFinite(t) ? `${new Date(t).toISOString().slice(0, 19).replace('T', ' ')} UTC` : '—';
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** An age bound such as "<1h" (newer than an hour) or ">30m" (older than 30 minutes); null when the text is not one. */
export function parseAge(token: string): { newer: boolean; ms: number } | null {
  const m = /^([<>])(\d+(?:\.\d+)?)([smhd])$/i.exec(token.trim());
  if (!m) return null;
  return { newer: m[1] === '<', ms: Number(m[2]) * UNIT_MS[m[3]!.toLowerCase()]! };
}

/** Newest first, by `created`. */
export const newestFirst = (a: { created: string }, b: { created: string }) => apiTime(b.created) - apiTime(a.created);
