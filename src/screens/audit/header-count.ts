import type { DataStore, ListEntry } from '../../store/data.js';
import type { SessionStore } from '../../store/session.js';
import { RULES } from '../../model/audit.js';
import { cachedRows, loadAudit, type CacheReads } from './load.js';

/** A pass over 10,000 instances takes milliseconds: at most one per this long, after the cache settles. */
export const SETTLE_MS = 2000;

/** The header counts these alone: the other rules' findings over 10,000 instances (thousands of lines) took ~35 ms a pass. */
const HIGH_RULES = RULES.filter((r) => r.severity === 'high');

/**
 * Counts the audit's high findings in the header as problem services are
 * counted: again whenever a cached list the last count read changes (its
 * rows, or its being cached at all), from what is cached alone (no request:
 * an area not read yet is left out until a view reads it, and `:audit` reads
 * them all). Returns the stop.
 */
export function watchAuditCount(data: DataStore, session: SessionStore): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  // Filled as the pass reads, so a list changed during a pass after it was read calls for another; null before the first.
  let reads: CacheReads | null = null;
  const count = async () => {
    timer = undefined;
    reads = new Map();
    const findings = await loadAudit(data, Date.now(), { cachedOnly: true, reads, rules: HIGH_RULES });
    if (!stopped) session.setState({ auditHigh: findings.filter((f) => f.severity === 'high').length });
  };
  const readChanged = (lists: Record<string, ListEntry>) => {
    if (reads === null) return true;
    for (const [key, rows] of reads) if (cachedRows(lists[key]) !== rows) return true;
    return false;
  };
  const unsubscribe = data.subscribe((s, before) => {
    if (s.lists === before.lists || timer || !readChanged(s.lists)) return;
    timer = setTimeout(() => void count(), SETTLE_MS);
    timer.unref?.();
  });
  return () => {
    stopped = true;
    unsubscribe();
    if (timer) clearTimeout(timer);
  };
}
